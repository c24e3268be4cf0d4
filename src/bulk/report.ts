// The end of every bulk command: a per-unit report (stdout — except at a terminal with --report,
// where the file holds it — and --report FILE as CSV), a
// summary on stderr, and the exit code — 3 when some units were rejected, 130 when
// interrupted, the fatal error's own code when the run had to stop.
import { closeSync, lstatSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { csvLine, guardFormula } from '../output/spreadsheet.js';
import type { Context } from '../context.js';
import type { Outcome, RunResult } from './runner.js';
import { writeList } from '../output/format.js';
import { InterruptedError, PartialFailureError, UsageError } from '../errors.js';
import { stripControl } from '../output/sanitize.js';

export const OUTCOME_COLUMNS = [
  { header: 'LINE', path: 'line' },
  { header: 'KEY', path: 'key' },
  { header: 'STATUS', path: 'status' },
  { header: 'ID', path: 'id' },
  { header: 'ERROR', path: 'error' },
];

/** Checked before anything is sent: an existing report (a link too, even a dangling one) is only replaced with --force. */
export function checkReportPath(path: string | undefined, force: boolean | undefined): void {
  if (path && lstatSync(path, { throwIfNoEntry: false }) && !force) {
    throw new UsageError(`${path} already exists: pass --force to overwrite it, or choose another --report file`);
  }
}

function flatRow(o: Outcome) {
  const fieldText = o.fields ? Object.entries(o.fields).map(([k, v]) => `${k}: ${v.join(' ')}`).join('; ') : '';
  return {
    line: o.lines.join(' '),
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
  return { lines: o.lines, key: o.key, status: o.status, id: o.id ?? null, error: o.error ?? null, fields: o.fields ?? null };
}

/**
 * The report as CSV, written to a new temporary file beside it and renamed into place: created
 * exclusively under an unguessable name, it is never a link planted in advance, and a reader
 * never sees half a report. Text cells are guarded against spreadsheet formulas unless asked.
 */
export function writeReportFile(path: string, outcomes: Outcome[], o: { csvFormulas?: boolean } = {}): void {
  const guard = o.csvFormulas ? (v: string) => v : guardFormula;
  let text = csvLine(['line', 'key', 'status', 'id', 'error']);
  for (const r of outcomes.map(flatRow)) text += csvLine([r.line, guard(r.key), r.status, typeof r.id === 'string' ? guard(r.id) : r.id, guard(r.error)]);
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o644);
  try {
    writeSync(fd, text);
    closeSync(fd);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

export async function finishBulk(
  ctx: Context,
  result: RunResult,
  o: { noun: string; verb: string; report?: string; journalPath?: string; fresh?: boolean; invalid?: Outcome[] },
): Promise<void> {
  const outcomes = o.invalid?.length ? [...o.invalid, ...result.outcomes].sort((a, b) => a.lines[0] - b.lines[0]) : result.outcomes;
  const counts: Record<Outcome['status'], number> = { created: 0, updated: 0, skipped: 0, rejected: 0, not_sent: 0, unknown: 0, invalid: 0 };
  for (const o of outcomes) counts[o.status]++;
  const { created, updated, skipped, rejected, not_sent: notSent, unknown, invalid } = counts;

  if (o.report) writeReportFile(o.report, outcomes, { csvFormulas: ctx.flags.csvFormulas });
  const format = ctx.format();
  // With --report at a terminal the rows are in the file: only the summary is shown. Piped, or
  // with an explicit -o json/ndjson/csv, stdout keeps the rows (scripts read them).
  if (!(o.report && ctx.io.stdoutIsTTY && format === 'table')) {
    const rows = format === 'json' || format === 'ndjson' ? outcomes.map(jsonRow) : outcomes.map(flatRow);
    await writeList(ctx.io, rows, ctx.output(OUTCOME_COLUMNS));
  }

  const { io } = ctx;
  const parts = [`${created} ${o.verb}`];
  if (updated) parts.push(`${updated} updated`);
  if (skipped) parts.push(`${skipped} skipped (done in an earlier run)`);
  parts.push(`${rejected} rejected`);
  if (notSent) parts.push(`${notSent} not sent`);
  if (unknown) parts.push(`${unknown} unknown (sent, no answer: they may exist)`);
  if (invalid) parts.push(`${invalid} invalid (not sent)`);
  io.error(`${o.noun}: ${parts.join(', ')}${o.report ? ` — report in ${o.report}` : ''}`);
  for (const f of outcomes.filter((x) => x.status === 'rejected').slice(0, 20)) {
    io.error(`  line ${f.lines.join(',')} (${stripControl(f.key)}): ${stripControl(flatRow(f).error)}`);
  }
  if (rejected > 20) io.error(`  … and ${rejected - 20} more${o.report ? ` (see ${o.report})` : ''}`);

  // Continuing means the same journal: a run started with --fresh goes on without it (with it,
  // the rerun would forget this run and send every row again).
  const resume = o.fresh
    ? 'to continue this run, rerun the same command WITHOUT --fresh: what went through is skipped, rows without an answer are resent under the same key'
    : 'rerun the same command to continue: what went through is skipped, rows without an answer are resent under the same key';
  if (result.fatal) {
    const err = result.fatal as Error & { hint?: string };
    err.hint = [err.hint, resume].filter(Boolean).join('; ');
    throw err;
  }
  if (result.interrupted) {
    const e = new InterruptedError(`interrupted: ${notSent} ${o.noun} not sent${unknown ? `, ${unknown} without an answer` : ''}`);
    e.hint = resume;
    throw e;
  }
  if (rejected || invalid) {
    const what = [rejected ? `${rejected} of ${outcomes.length} ${o.noun} rejected` : '', invalid ? `${invalid} invalid row${invalid > 1 ? 's' : ''} not sent` : ''];
    throw new PartialFailureError(what.filter(Boolean).join(', '));
  }
}
