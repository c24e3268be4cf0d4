// --jq: the JSON output filtered through jq itself (jq 1.7 compiled to WebAssembly, the jq-web
// package), loaded only when --jq is given. Results print as `jq -r` prints them: strings raw,
// anything else as compact JSON, one result per line.
import { createRequire } from 'node:module';
import { JqError, SctError, UsageError } from '../errors.js';
import { withDefaultStopSignals } from '../util/process.js';

interface Jq {
  /** `echo INPUT | jq FLAGS FILTER`: stdout, or a throw with jq's exit code and stderr. */
  raw(input: string, filter: string, flags?: string[]): string;
}
let loaded: Promise<Jq> | undefined;

function engine(): Promise<Jq> {
  return (loaded ??= Promise.resolve().then(load));
}

/** jq-web's loader, made to fail as one error of sct's where its WebAssembly cannot start. */
async function load(): Promise<Jq> {
  // Not in TypeScript's lib for Node: read from globalThis.
  const wasm = (globalThis as { WebAssembly?: { RuntimeError: abstract new () => Error } }).WebAssembly;
  if (!wasm) throw cannotRun('this Node has no WebAssembly (is it started with --jitless?)');
  // Where WebAssembly cannot start (too little address space: `ulimit -v`), jq-web's loader (Emscripten)
  // writes its own lines to stderr and rejects a promise of its own that nobody awaits, which
  // Node would print with a stack after sct's error. Its writer is bound to console.error as it
  // loads, so it is given one that is quiet until the engine has started; and the rejection of
  // that failure alone is taken here, any other still ends the process as Node would.
  let started = false;
  const write = console.error;
  const quietUntilStarted = (...args: unknown[]): void => {
    if (started && !jqRunning) write.apply(console, args);
  };
  let failure: unknown;
  const takeOwnRejection = (reason: unknown): void => {
    if (reason !== failure && !(reason instanceof wasm.RuntimeError)) throw reason;
  };
  process.on('unhandledRejection', takeOwnRejection);
  console.error = quietUntilStarted;
  try {
    // jq-web is a CommonJS file whose module.exports is a promise of the engine: required, since a
    // namespace made of a promise would itself look like one. It stays outside the bundle
    // (scripts/build.mjs): its loader finds jq.wasm beside its own file in node_modules.
    const pending = createRequire(import.meta.url)('jq-web') as Promise<Jq>;
    console.error = write;
    const jq = await pending;
    started = true;
    process.off('unhandledRejection', takeOwnRejection);
    return jq;
  } catch (err) {
    console.error = write;
    failure = err;
    const message = String((err as Error)?.message ?? err)
      .replace(/\. Build with -sASSERTIONS.*$/s, '')
      .replace(/^Aborted\((.*)\)$/s, '$1')
      .replace(/^\w*Error: WebAssembly\.\w+\(\): /, '');
    throw cannotRun(`its WebAssembly could not start (${message})`);
  }
}

function cannotRun(why: string): JqError {
  return new JqError(`--jq cannot run here: ${why}`);
}

/**
 * Where jq's own error line begins in its stderr, by `marker`, or -1: on the last line that holds
 * the marker, the first time it does. jq writes its error last, right after what the expression
 * wrote with `stderr` (which may end without a newline); an expression's error may say the
 * marker again later on its own line.
 */
function jqErrorAt(text: string, marker: string): number {
  const last = text.lastIndexOf(marker);
  if (last < 0) return -1;
  return text.indexOf(marker, text.lastIndexOf('\n', last) + 1);
}

/**
 * jq's own message, without its "jq: error" prefix, the exit-code line and the count line. A
 * compile error is a "jq: error: …" line for each; a runtime error one prefix, the rest of its
 * lines the expression's own.
 */
function jqMessage(err: unknown): string {
  const e = err as { stderr?: unknown; message?: unknown; exitCode?: unknown };
  const text = typeof e?.stderr === 'string' && e.stderr.trim() ? e.stderr : String(e?.message ?? err);
  const compile = e?.exitCode === 3;
  return text
    .split('\n')
    .filter((l) => l.trim() && !/^jq: \d+ compile errors?$/.test(l.trim()) && !/^Non-zero exit code/.test(l))
    // jq-web's name for the input, where jq says <stdin>.
    .map((l, i) => (compile || i === 0 ? l.replace(/^jq: error(: )?/, '') : l).trim().replace(/^\(at inputString:/, '(at <stdin>:'))
    // A line ending "line 1:" names the place of the expression's line that follows it.
    .reduce((text, l) => (!text ? l : text.endsWith(':') ? `${text} ${l}` : `${text}; ${l}`), '');
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

/**
 * The largest JSON (in UTF-8 bytes) handed to jq. jq here is WebAssembly holding the whole
 * document in at most 4 GB (a list of 250 MB is already past what it can parse), and jq-web
 * gathers its output a byte at a time in a JavaScript array, which V8 cannot grow past a
 * capacity of ~113 million (it grows by half): beyond, Node ends with a native crash (exit 133),
 * none of sct's errors. A list `.[]` writes out about as large as it came in: under this, it fits.
 */
const MAX_JQ_INPUT = 100e6;

/**
 * jq's own out-of-memory: the WebAssembly ended (no exit code of jq's), and jq's line said so as
 * jq writes it (an expression's error() is "jq: error (at …): …"), or its memory was overrun.
 */
function outOfMemory(err: unknown): boolean {
  const e = err as { stderr?: unknown; message?: unknown; exitCode?: unknown };
  if (!(err instanceof Error) || err.name !== 'RuntimeError' || e.exitCode !== undefined) return false;
  const lines = typeof e.stderr === 'string' ? e.stderr.split('\n').map((l) => l.trim()) : [];
  return lines.includes('jq: error: cannot allocate memory') || /memory access out of bounds/.test(String(e.message));
}

/**
 * While jq runs, the lines its WebAssembly writes of itself ("Aborted()" before an out-of-memory
 * error, which sct says in its own words) are not written.
 */
let jqRunning = false;

/**
 * jq.raw with jq's own stderr (`debug`, `stderr`) handed back as jq wrote it: jq-web prints it
 * with console.warn as `stderr: …` once jq has run without failing.
 */
function runQuietly(jq: Jq, input: string, expr: string): { out: string | undefined; stderr?: string } {
  const warn = console.warn;
  let stderr: string | undefined;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('%cstderr%c:') && typeof args[4] === 'string') stderr = args[4];
    else warn.apply(console, args);
  };
  jqRunning = true;
  try {
    return { out: jq.raw(input, expr, ['-r', '-c']), stderr };
  } finally {
    jqRunning = false;
    console.warn = warn;
  }
}

/** The output of `jq -r -c EXPR` on the document, each result on its own line (nothing when none). */
export async function runJq(document: unknown, expr: string, onStderr: (text: string) => void): Promise<string> {
  const jq = await engine();
  let out: string | undefined;
  try {
    const input = JSON.stringify(document ?? null);
    // In UTF-8, as jq's output is gathered: a character of Chinese text is three of its elements.
    const bytes = input.length > MAX_JQ_INPUT / 3 ? Buffer.byteLength(input) : input.length;
    if (bytes > MAX_JQ_INPUT) {
      const e = new JqError(`--jq: the JSON is ${Math.round(bytes / 1e6)} MB, more than the ${MAX_JQ_INPUT / 1e6} MB jq takes here`);
      e.hint = 'write it one object a line (-o ndjson) and give that to jq';
      throw e;
    }
    const ran = withDefaultStopSignals(() => runQuietly(jq, input, expr));
    out = ran.out;
    if (ran.stderr !== undefined) onStderr(ran.stderr);
  } catch (err) {
    if (err instanceof SctError) throw err;
    // What the expression wrote (`debug`, `stderr`) before jq's error: written as it came, as
    // jq writes it, and not made part of the error (its last piece may lack its newline).
    const failed = err as { stderr?: unknown };
    if (typeof failed?.stderr === 'string') {
      // jq's own line begins with its name for the input (an error("… jq: error …") of its own
      // is all jq's message).
      const own = jqErrorAt(failed.stderr, 'jq: error (at inputString:');
      const at = own >= 0 ? own : jqErrorAt(failed.stderr, 'jq: error: ');
      if (at > 0) {
        const written = failed.stderr.slice(0, at).replace(/\n$/, '');
        if (written) onStderr(written);
        failed.stderr = failed.stderr.slice(at);
      }
    }
    // The document nested past what a stack walks (JSON.stringify's): that, as report-error says it.
    if (err instanceof RangeError && err.message.includes('Maximum call stack size exceeded')) throw err;
    const tooLarge = err instanceof RangeError && /Invalid string length/.test(err.message);
    const said = tooLarge ? 'the JSON is too large to hand to jq' : jqMessage(err);
    const e = new JqError(`--jq: ${said}`);
    // jq here is WebAssembly, at most 4 GB, holding the whole document (an --all list of 60,000
    // orders) and what the expression makes of it; jq itself reads a stream of objects. Its own
    // words for it, not a user's error("… too large") of the expression.
    if (tooLarge || outOfMemory(err)) {
      e.hint = 'jq ran out of the memory sct can give it (at most 4 GB, for the whole JSON and all the expression makes of it): for a large list, write it one object a line (-o ndjson) and give that to jq';
    }
    throw e;
  }
  // jq-web drops the last newline of jq's output, and gives undefined when there is none at
  // all; '' is one empty result (`--jq '""'`), which jq prints as an empty line.
  return out === undefined ? '' : out + '\n';
}
