// --jq: the JSON output filtered through jq itself (jq 1.7 compiled to WebAssembly, the jq-web
// package), loaded only when --jq is given. Results print as `jq -r` prints them: strings raw,
// anything else as compact JSON, one result per line.
import { createRequire } from 'node:module';
import { SctError, UsageError } from '../errors.js';
import { withDefaultStopSignals } from '../util/process.js';

interface Jq {
  /** `echo INPUT | jq FLAGS FILTER`: stdout, or a throw with jq's exit code and stderr. */
  raw(input: string, filter: string, flags?: string[]): string;
}
let loaded: Promise<Jq> | undefined;

function engine(): Promise<Jq> {
  // jq-web is a CommonJS file whose module.exports is a promise of the engine: required, since a
  // namespace made of a promise would itself look like one. It stays outside the bundle
  // (scripts/build.mjs): its loader finds jq.wasm beside its own file in node_modules.
  return (loaded ??= Promise.resolve().then(() => createRequire(import.meta.url)('jq-web') as Promise<Jq>));
}

/** jq's own message, without its "jq: error" prefixes, the exit-code line and the count line. */
function jqMessage(err: unknown): string {
  const e = err as { stderr?: unknown; message?: unknown };
  const text = typeof e?.stderr === 'string' && e.stderr.trim() ? e.stderr : String(e?.message ?? err);
  return text
    .split('\n')
    .filter((l) => l.trim() && !/^jq: \d+ compile errors?$/.test(l.trim()) && !/^Non-zero exit code/.test(l))
    .map((l) => l.replace(/^jq: error(: )?/, '').trim())
    .join('; ');
}

/** Exit 2 when the expression does not compile (jq's exit code 3); nothing of it runs here. */
export async function checkJq(expr: string): Promise<void> {
  if (!expr.trim()) throw new UsageError('--jq needs an expression (e.g. --jq ".[].id")');
  const jq = await engine();
  try {
    // Compiled behind `empty`, so a filter that would fail on null (or run long) is not evaluated.
    jq.raw('null', `empty | (\n${expr}\n)`, ['-r']);
  } catch {
    // jq's own words for the expression as typed: it does not compile, so running it runs nothing.
    try {
      jq.raw('null', expr, ['-r']);
    } catch (err) {
      if ((err as { exitCode?: number }).exitCode === 3) throw new UsageError(`invalid --jq expression: ${jqMessage(err)}`);
    }
  }
}

/** The output of `jq -r -c EXPR` on the document, each result on its own line (nothing when none). */
export async function runJq(document: unknown, expr: string): Promise<string> {
  const jq = await engine();
  let out: string | undefined;
  try {
    const input = JSON.stringify(document ?? null);
    out = withDefaultStopSignals(() => jq.raw(input, expr, ['-r', '-c']));
  } catch (err) {
    throw new SctError(`--jq: ${jqMessage(err)}`);
  }
  // jq-web drops the last newline of jq's output, and gives undefined when there is none at
  // all; '' is one empty result (`--jq '""'`), which jq prints as an empty line.
  return out === undefined ? '' : out + '\n';
}
