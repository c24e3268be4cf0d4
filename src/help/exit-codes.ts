// sct's exit codes, once: `sct --help` has a line of them, `sct help exit-codes` (and its page in
// docs/ and man/) the whole table. The codes themselves belong to the error classes (errors.ts).
import { wrap } from './wrap.js';

interface ExitCode {
  code: number;
  /** As the line of `sct --help` says it. */
  short: string;
  meaning: string;
}

export const EXIT_CODES: readonly ExitCode[] = [
  { code: 0, short: 'ok', meaning: 'success' },
  {
    code: 1,
    short: 'request failed',
    meaning:
      'the request failed: API error (4xx other than 401, 5xx after retries), network error, a rate-limit wait longer than --max-wait, a --jq error at run time, output that could not be written',
  },
  {
    code: 2,
    short: 'usage error',
    meaning:
      'usage or input error found before anything was sent (bad flag, missing option, unknown field or role, bad --jq expression, invalid file, a download target that exists without --force, a declined confirmation); nothing was sent',
  },
  { code: 3, short: 'partial failure', meaning: 'partial failure of a bulk command: some rows were rejected, the others went through' },
  { code: 4, short: 'not authenticated', meaning: 'not authenticated: no token, or the service answered 401' },
  { code: 130, short: 'interrupted', meaning: 'interrupted (Ctrl-C); a bulk command reports what was done first' },
  { code: 143, short: 'stopped (SIGTERM)', meaning: 'stopped by SIGTERM; reported as for Ctrl-C' },
  { code: 129, short: 'stopped (SIGHUP)', meaning: 'stopped by SIGHUP (the terminal closed); reported as for Ctrl-C' },
];

/** `sct help exit-codes`. */
export function exitCodesText(): string {
  return `Exit codes:

${EXIT_CODES.map((c) => `  ${String(c.code).padEnd(5)}${wrap(c.meaning, 96, '       ').trimStart()}\n`).join('')}
Errors print "error: <message>" on stderr (and a "hint:" line); with -o json or ndjson the last
line of stderr is also a JSON object: {"error", "status", "fields", "exit_code"}.
`;
}

/** The line of `sct --help`. */
export function exitCodesLine(): string {
  return `Exit codes: ${EXIT_CODES.map((c) => `${c.code} ${c.short}`).join(', ')}.`;
}
