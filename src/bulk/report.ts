// The end of every bulk command: a per-unit report (stdout — except at a terminal with --report,
// where the file holds it — and --report FILE as CSV), a
// summary on stderr, and the exit code — 3 when some units were rejected, 130 when
// interrupted, the fatal error's own code when the run had to stop.
import { accessSync, closeSync, constants, lstatSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { claimFile, existingTarget, fileState, NoReaderError, openToWriteInto, writeAllSync, writeAtomically, type FileState } from '../util/files.js';
import { csvLine, guardFormula } from '../output/spreadsheet.js';
import type { Context } from '../context.js';
import type { Outcome, Outcomes, RunResult } from './runner.js';
import { JournalWriteError } from './journal.js';
import { writeList, writeOne } from '../output/format.js';
import { ClosedPipeError, InterruptedError, OutputError, PartialFailureError, SctError, UsageError } from '../errors.js';
import { cleanCell, keyShown, stripControl } from '../util/sanitize.js';
import { shellWord } from '../util/shell.js';
import { credentialsInText } from '../util/redact.js';
import { shownFieldErrors } from '../api/errors.js';
import { countOf } from '../util/format.js';

const OUTCOME_COLUMNS = [
  { header: 'LINE', path: 'line' },
  { header: 'KEY', path: 'key' },
  { header: 'STATUS', path: 'status' },
  { header: 'ID', path: 'id' },
  { header: 'ERROR', path: 'error' },
];

/**
 * Checked before anything is sent, so that the report of rows that went through can be written:
 * its directory exists and is writable, it is not the input file (not even with --force), and
 * an existing report (a link too, even a dangling one) is only replaced with --force.
 */
export function checkReportPath(path: string | undefined, force: boolean | undefined, input?: string): void {
  if (path === undefined) return;
  // `--report "$R"` with R unset: a run that writes no report would go by unsaid.
  if (path.trim() === '') throw new UsageError('--report needs a file name');
  // Not a file named "-" in the current directory, which `-` is nowhere else in sct.
  if (path === '-') throw new UsageError('--report -: the report is a CSV file: name one (stdout carries the run\'s own output; /dev/stdout if you mean it)');
  const dir = dirname(resolve(path));
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new UsageError(`the directory of --report ${path} does not exist: create it, or choose another --report file`);
  }
  if (!isDir) throw new UsageError(`the directory of --report ${path} is not a directory: choose another --report file`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new UsageError(`the directory of --report ${path} is not writable: choose another --report file`);
  }
  if (input !== undefined && input !== '-' && sameFile(path, input)) {
    throw new UsageError(`--report ${path} is the input file: the report would replace it; choose another --report file`);
  }
  const existing = lstatSync(path, { throwIfNoEntry: false });
  if (existing?.isDirectory()) throw new UsageError(`--report ${path} is a directory: name a file in it`);
  // A device or a FIFO (/dev/null, a pipe to a reader), or a link to one or to standard output
  // (/dev/stdout), is written into, never replaced.
  const kind = existing && existingTarget(path, existing);
  if (existing && kind === 'file' && !force) {
    throw new UsageError(`${path} already exists: pass --force to overwrite it, or choose another --report file`);
  }
  REPORT_START.set(resolve(path), kind === 'stdout' || kind === 'special' ? kind : existing ? fileState(existing) : 'absent');
}

/** A device or FIFO to write the report into; a FIFO nobody reads is a usage error naming --report. */
function openSpecial(path: string): number {
  try {
    return openToWriteInto(path);
  } catch (err) {
    // After the run: what it did is in the summary and the journal, only this file is missing.
    if (err instanceof NoReaderError) throw new SctError(`--report ${path} is a FIFO that no process reads: the report was not written (start its reader before the run)`);
    throw err;
  }
}

/**
 * What each --report path was when its run began (checkReportPath): a report replaces only that
 * file, never one another process created at the name meanwhile, and writes into a device.
 */
const REPORT_START = new Map<string, FileState | 'absent' | 'special' | 'stdout'>();

/** The same file by path, or by device and inode (a link, another spelling of the path). */
function sameFile(a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true;
  const sa = statSync(a, { throwIfNoEntry: false });
  const sb = statSync(b, { throwIfNoEntry: false });
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino;
}

function flatRow(o: Outcome) {
  const shown = o.fields && shownFieldErrors(o.fields);
  const more = shown?.notShown ? `; (${shown.notShown.toLocaleString('en-US')} more field errors not shown)` : '';
  const fieldText = shown ? Object.entries(shown.fields).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ') + more : '';
  return {
    line: lineRanges(o.lines, ' '),
    key: o.key,
    status: o.status,
    id: o.id ?? '',
    error: fieldText ? `${o.error ?? ''}${o.error ? ' — ' : ''}${fieldText}` : (o.error ?? ''),
  };
}

/**
 * The same outcome for -o json/ndjson, typed for scripts: the input lines as numbers, the id as
 * the API gave it (null when there is none), and the API's field errors as an object.
 */
function jsonRow(o: Outcome) {
  const shown = o.fields && shownFieldErrors(o.fields);
  return { lines: o.lines, key: o.key, status: o.status, id: o.id ?? null, error: o.error ?? null, fields: shown?.fields ?? null, ...(shown?.notShown ? { fields_not_shown: shown.notShown } : {}) };
}

/** The report's CSV, line by line as it is written: a million rows are never one string. */
function* reportLines(outcomes: Iterable<Outcome>, o: { csvFormulas?: boolean }): Iterable<string> {
  const guard = o.csvFormulas ? (v: string) => v : guardFormula;
  yield csvLine(['line', 'key', 'status', 'id', 'error']);
  // The id and the error are the service's words (a status, an echoed external_id): no control
  // character of theirs reaches a report, which `--report /dev/stdout` puts on a terminal.
  for (const r of mapped(outcomes, flatRow)) yield csvLine([r.line, guard(r.key), r.status, typeof r.id === 'string' ? guard(stripControl(r.id)) : r.id, guard(stripControl(r.error))]);
}

/**
 * `--report /dev/stdout` (a path that leads to standard output): the report goes out through
 * it as the command's other output does, in order with it, a piece at a time (a pipe's reader may
 * be slow); opening the path again would fail for a socket and race the output for a pipe.
 */
async function writeReportToStdout(io: Context['io'], outcomes: Iterable<Outcome>, o: { csvFormulas?: boolean }): Promise<void> {
  let batch = '';
  for (const line of reportLines(outcomes, o)) {
    batch += line;
    if (batch.length >= 1 << 16) {
      await io.write(batch);
      batch = '';
    }
  }
  if (batch) await io.write(batch);
}

/**
 * The report as CSV, written whole or not at all: through a new temporary file that then takes
 * the name (claimFile: never through a planted link, never over a file another process created
 * meanwhile, with --force only over the one that was there), or into a device. Text cells are
 * guarded against spreadsheet formulas unless asked.
 */
export function writeReportFile(path: string, outcomes: Iterable<Outcome>, o: { csvFormulas?: boolean } = {}): void {
  const text = reportLines(outcomes, o);
  const start = REPORT_START.get(resolve(path));
  // Before the command's other output (the report of invalid rows, of plots): straight to it.
  if (start === 'stdout') return writeAllSync(1, text);
  if (start === 'special') {
    const fd = openSpecial(path);
    try {
      writeAllSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return;
  }
  const tmp = `${path}.${process.pid}.report.tmp`;
  writeAtomically(tmp, text, 0o644, { umask: true });
  try {
    claimFile(tmp, path, start === 'absent' ? undefined : start, () => new SctError(`${path} already exists: another process created it while the run went on; nothing was replaced`));
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** How a run names its `conflict` rows: in the summary, the error and its hint. */
export interface ConflictWords {
  summary: string;
  error: string;
  /** What to do, of the file's units (rows, or a plot file's features). */
  hint: (unit: FileUnit) => string;
}

/** A sync's: the object changed on the service between the plan and the write. */
const CHANGED_SINCE_PLAN: ConflictWords = {
  summary: 'not written (changed on the service since the plan)',
  error: 'changed on the service since the plan',
  hint: () => 'rerun the same command: it reads the service again and plans from what is there now',
};

/** A file command's: rows an earlier run sent without an answer are not in the file as they were sent (edited, or a row of their request removed). */
export const EDITED_SINCE_SENT: ConflictWords = {
  summary: 'not done (changed since an earlier run sent them without an answer: the service keeps what was sent then)',
  error: 'changed since an earlier run sent them without an answer',
  hint: (unit) => `put those ${unit}s back as they were sent (a ${unit} removed, too), and the rerun has the service answer as it did; or check them on the service and rerun with --fresh`,
};

export async function finishBulk(
  ctx: Context,
  result: Omit<RunResult, 'outcomes'> & { outcomes: Outcomes },
  o: {
    noun: string;
    verb: string;
    report?: string;
    journalPath?: string;
    fresh?: boolean;
    invalid?: Outcome[];
    /** With -o json, the one document stdout carries, made of the rows (a sync's plan holds them). */
    document?: (rows: object[]) => object;
    /** What a `conflict` row is in this run, when not a sync's write that found the object changed. */
    conflicts?: ConflictWords;
    /** What the file's invalid units are: rows, or a plot file's features. */
    unit?: FileUnit;
    /** A sync's: its rerun plans again from what the service has, instead of skipping by its journal. */
    replans?: boolean;
  },
): Promise<void> {
  const outcomes = o.invalid?.length ? withInvalid(o.invalid, result.outcomes) : result.outcomes;
  const counts: Record<Outcome['status'], number> = { created: 0, updated: 0, skipped: 0, rejected: 0, conflict: 0, not_sent: 0, unknown: 0, invalid: 0 };
  for (const o of outcomes) counts[o.status]++;
  const { created, updated, skipped, rejected, conflict, not_sent: notSent, unknown, invalid } = counts;
  const unit = o.unit ?? 'row';
  const { io } = ctx;

  // Every row was sent or settled by now: a file or an output that fails is reported after the
  // summary, never instead of it.
  let reportFailure: SctError | undefined;
  if (o.report) {
    try {
      if (REPORT_START.get(resolve(o.report)) === 'stdout') await writeReportToStdout(ctx.io, outcomes, { csvFormulas: ctx.flags.csvFormulas });
      else writeReportFile(o.report, outcomes, { csvFormulas: ctx.flags.csvFormulas });
    } catch (err) {
      reportFailure = new SctError(`writing the report ${shellWord(o.report)}: ${(err as Error).message}`, { cause: err });
    }
  }
  const format = ctx.format();
  let outputFailure: OutputError | undefined;
  // With --report at a terminal the rows are in the file: only the summary is shown. Piped, or
  // with an explicit -o json/ndjson/csv, stdout keeps the rows (scripts read them).
  if (!(o.report && ctx.io.stdoutIsTTY && format === 'table')) {
    // Each row made as it is written: a million outcomes are not copied into a million rows first.
    const rows = mapped<Outcome, object>(outcomes, format === 'json' || format === 'ndjson' ? jsonRow : flatRow);
    // The report's columns in -o csv, not the field check's list (which has -o json's names too).
    const output = { ...ctx.output(OUTCOME_COLUMNS), csvColumns: undefined };
    try {
      if (o.document && format === 'json') await writeOne(io, o.document([...rows]), output);
      else await writeList(io, rows, output);
      await io.flush();
    } catch (err) {
      // A reader that has gone (`| head`) changes nothing about the run: its exit code stays the rows'.
      if (err instanceof OutputError) outputFailure = err;
      else if (!(err instanceof ClosedPipeError)) throw err;
    }
  }

  const parts = [`${created} ${o.verb}`];
  if (updated) parts.push(`${updated} updated`);
  if (skipped) parts.push(`${skipped} skipped (done in an earlier run)`);
  parts.push(`${rejected} rejected`);
  const words = o.conflicts ?? CHANGED_SINCE_PLAN;
  if (conflict) parts.push(`${conflict} ${words.summary}`);
  if (notSent) parts.push(`${notSent} not sent`);
  // A sync's may be updates, which exist either way.
  const mayBe = o.replans ? 'they may have been carried out' : 'they may exist';
  if (unknown) parts.push(`${unknown} unknown (sent, no answer says what became of them: ${mayBe})`);
  if (invalid) parts.push(`${invalid} invalid (not sent)`);
  // After the table (inside the pager when one shows it), never before it; --quiet keeps them.
  await io.after(`${o.noun}: ${parts.join(', ')}${o.report && !reportFailure ? ` — report in ${shellWord(o.report)}` : ''}`);
  // Without its report or its journal, stderr is the one record of what became of each row.
  const journalFailure = result.fatal instanceof JournalWriteError;
  if (reportFailure || journalFailure) {
    for (const f of outcomes) await io.after(`  ${outcomeLine(f, unit)}`);
  } else if (rejected > 0) {
    for (const f of first(20, only('rejected', outcomes))) {
      await io.after(`  ${placeOf(f, unit)}: ${cleanCell(flatRow(f).error)}`);
    }
    if (rejected > 20) await io.after(`  … and ${rejected - 20} more${o.report ? ` (see ${shellWord(o.report)})` : ''}`);
  }

  const resume = rerunHint(ctx, o);
  // Thrown below is the run's own failure or the report's: an output cut short beside it is said
  // here, so that neither goes unsaid.
  if (outputFailure && (result.fatal || reportFailure || result.interrupted)) await io.after(`error: ${outputFailure.message}`);
  if (result.fatal) {
    if (reportFailure) await io.after(`error: ${reportFailure.message}`);
    const err = result.fatal as Error & { hint?: string; afterRedirect?: string; idempotencyKey?: string };
    // A write the service answered with a redirect sct does not follow gets the same redirect at
    // every rerun (a create under the same key; an update, which has none, sent again), which
    // would stop at it again: it is taken out first. A sync's rerun plans again, and sends it
    // (to the same redirect) only if it did not go through.
    const again = err.idempotencyKey === undefined ? 'a rerun sends it again' : 'a rerun resends it under the same key';
    const go =
      err.afterRedirect === undefined
        ? resume
        : o.replans
          ? `if it went through, a rerun does not send it again; if the rerun meets the same redirect, take it out of the file then; ${rerunHint(ctx, o, 'rerun')}`
          : `${again} and gets the same redirect: see whether it went through, take it out of the file, ${rerunHint(ctx, o, 'then rerun for the rest')}`;
    err.hint = [err.hint, go].filter(Boolean).join('; ');
    throw err;
  }
  if (reportFailure) {
    reportFailure.hint = resume;
    throw reportFailure;
  }
  if (result.interrupted) {
    const said = notSent && unknown ? `${countOf(notSent, o.noun)} not sent, ${unknown} without an answer` : notSent ? `${countOf(notSent, o.noun)} not sent` : unknown ? `${countOf(unknown, o.noun)} without an answer` : '';
    const e = new InterruptedError(said ? `interrupted: ${said}` : 'interrupted');
    e.hint = resume;
    throw e;
  }
  if (outputFailure) throw outputFailure;
  // Rows whose request went through with an answer that said nothing of them (a bulk answer
  // that left them out): they may exist, so this is no success; the rerun sends them again
  // under the same key and the service answers as it did.
  if (unknown) {
    for (const f of first(20, only('unknown', outcomes))) await io.after(`  ${placeOf(f, unit)}: ${cleanCell(f.error ?? 'no answer')}`);
    if (unknown > 20) await io.after(`  … and ${unknown - 20} more${o.report ? ` (see ${shellWord(o.report)})` : ''}`);
    const e = new SctError(`${unknown} of ${outcomes.length} ${o.noun} sent without an answer about them: ${mayBe}`);
    e.hint = resume;
    throw e;
  }
  if (conflict) {
    for (const c of only('conflict', outcomes)) await io.after(`  ${placeOf(c, unit)}: ${cleanCell(c.error ?? '')}`);
    const e = new PartialFailureError(`${[rejected && `${rejected} rejected`, `${conflict} ${words.error}`].filter(Boolean).join(', ')} (of ${outcomes.length} ${o.noun})`);
    e.hint = words.hint(unit);
    throw e;
  }
  if (rejected || invalid) {
    const what = [rejected ? `${rejected} of ${outcomes.length} ${o.noun} rejected` : '', invalid ? `${invalidCount(invalid, unit)} not sent` : ''];
    const e = new PartialFailureError(what.filter(Boolean).join(', '));
    e.hint = rerunHint(ctx, o, `fix the ${rejected ? 'rejected' : 'invalid'} ${unit}s in the file, then rerun`);
    throw e;
  }
}

/** What a file's numbers count: its rows' lines, or a plot file's features. */
export type FileUnit = 'row' | 'feature';

/** "2 invalid rows", "1 invalid feature". */
export function invalidCount(n: number, unit: FileUnit): string {
  return `${n} invalid ${unit}${n === 1 ? '' : 's'}`;
}

/** "line 3" of a file's rows, "feature 3" of a plot file's features. */
export function placeName(unit: FileUnit, at: number | string): string {
  return `${unit === 'row' ? 'line' : 'feature'} ${at}`;
}

/** Where a unit is in its file, for stderr: `line 3 (F-1)`, or a plot file's `feature 3 (F-1)`. */
function placeOf(o: Outcome, unit: FileUnit): string {
  return `${placeName(unit, lineRanges(o.lines, ','))} (${keyShown(o.key)})`;
}

/**
 * A unit's lines with three or more in a row as a range ("2..8001 8003"): an order of 20,000
 * item rows names its lines in a few characters, not in more than a spreadsheet cell holds.
 * Two dots, not a dash: a spreadsheet reads a cell `2-4` as a date (4 February).
 */
export function lineRanges(lines: readonly number[], separator: string): string {
  const parts: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && lines[j + 1] === lines[j]! + 1) j++;
    if (j - i >= 2) parts.push(`${lines[i]}..${lines[j]}`);
    else for (let k = i; k <= j; k++) parts.push(String(lines[k]));
    i = j + 1;
  }
  return parts.join(separator);
}

/** One row's outcome for stderr with its status, then its id or error: `line 3 (F-1): created 412`. */
function outcomeLine(o: Outcome, unit: FileUnit): string {
  const r = flatRow(o);
  // The service's words on one line each: a line break of theirs would draw a line of sct's.
  const detail = [r.id, r.error].filter((x) => x !== '').map((x) => cleanCell(String(x)));
  return `${placeOf(o, unit)}: ${o.status}${detail.length ? ` ${detail.join(' ')}` : ''}`;
}

/**
 * How to continue a run that stopped: the same command, as a command that works. It replaces
 * the report this run wrote (--force), and continues a run started with --fresh without it
 * (with it, the rerun would forget this run and send every row again).
 */
function rerunHint(ctx: Context, o: { report?: string; fresh?: boolean; unit?: FileUnit; replans?: boolean }, fix?: string): string {
  const how = fix ?? (o.fresh ? 'to continue this run, rerun it without --fresh' : 'to continue, rerun');
  const why = o.replans
    ? 'it plans again from what the service has: what went through is not sent again, creates without an answer are resent under the same key'
    : `what went through is skipped, ${o.unit ?? 'row'}s without an answer are resent under the same key`;
  if (!ctx.argv) return `${how}: the same command (${why})`;
  const args = o.fresh ? ctx.argv.filter((a) => a !== '--fresh') : [...ctx.argv];
  if (o.report && !args.includes('--force')) args.push('--force');
  // A password in a URL typed on the line (--base-url) is not repeated: it would land in CI logs.
  return `${how}: ${['sct', ...args].map((a) => shellWord(credentialsInText(a))).join(' ')} (${why})`;
}

/** Each item as f makes it, one at a time: never a second array as long as the first. */
function* mapped<T, U>(items: Iterable<T>, f: (item: T) => U): Iterable<U> {
  for (const item of items) yield f(item);
}

function* only(status: Outcome['status'], outcomes: Iterable<Outcome>): Iterable<Outcome> {
  for (const o of outcomes) if (o.status === status) yield o;
}

function* first<T>(n: number, items: Iterable<T>): Iterable<T> {
  if (n <= 0) return;
  for (const item of items) {
    yield item;
    if (--n === 0) return;
  }
}

const byLine = (a: Outcome, b: Outcome) => a.lines[0] - b.lines[0];

/**
 * The run's outcomes and the rows --skip-invalid left out, in line order. An array is sorted as
 * one; outcomes made as they are read (already in line order) are merged with the few invalid
 * rows, never copied into one array.
 */
function withInvalid(invalid: Outcome[], outcomes: Outcomes): Outcomes {
  if (Array.isArray(outcomes)) return [...invalid, ...outcomes].sort(byLine);
  const left = [...invalid].sort(byLine);
  return {
    length: left.length + outcomes.length,
    *[Symbol.iterator]() {
      let i = 0;
      for (const o of outcomes) {
        while (i < left.length && byLine(left[i], o) <= 0) yield left[i++];
        yield o;
      }
      while (i < left.length) yield left[i++];
    },
  };
}
