// The end of every bulk command: a per-unit report (stdout, and --report FILE as CSV), a
// summary on stderr, and the exit code — 3 when some units were rejected, 130 when
// interrupted, the fatal error's own code when the run had to stop.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'csv-stringify/sync';
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

/** Checked before anything is sent: an existing report is only replaced with --force. */
export function checkReportPath(path: string | undefined, force: boolean | undefined): void {
  if (path && existsSync(path) && !force) {
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

export function writeReportFile(path: string, outcomes: Outcome[]): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, stringify(outcomes.map(flatRow), { header: true, columns: ['line', 'key', 'status', 'id', 'error'] }), { mode: 0o644 });
  renameSync(tmp, path);
}

export async function finishBulk(
  ctx: Context,
  result: RunResult,
  o: { noun: string; verb: string; report?: string; journalPath?: string },
): Promise<void> {
  const { outcomes } = result;
  const count = (s: Outcome['status']) => outcomes.filter((x) => x.status === s).length;
  const created = count('created');
  const skipped = count('skipped');
  const failed = count('failed');
  const notSent = count('not_sent');

  if (o.report) writeReportFile(o.report, outcomes);
  const format = ctx.format();
  const rows = format === 'json' || format === 'ndjson' ? outcomes.map(jsonRow) : outcomes.map(flatRow);
  await writeList(ctx.io, rows, ctx.output(OUTCOME_COLUMNS));

  const { io } = ctx;
  const parts = [`${created} ${o.verb}`];
  if (skipped) parts.push(`${skipped} skipped (done in an earlier run)`);
  parts.push(`${failed} failed`);
  if (notSent) parts.push(`${notSent} not sent`);
  io.error(`${o.noun}: ${parts.join(', ')}${o.report ? ` — report in ${o.report}` : ''}`);
  for (const f of outcomes.filter((x) => x.status === 'failed').slice(0, 20)) {
    io.error(`  line ${f.lines.join(',')} (${stripControl(f.key)}): ${stripControl(flatRow(f).error)}`);
  }
  if (failed > 20) io.error(`  … and ${failed - 20} more${o.report ? ` (see ${o.report})` : ''}`);

  const resume = 'rerun the same command to continue: what went through is skipped';
  if (result.fatal) {
    const err = result.fatal as Error & { hint?: string };
    err.hint = [err.hint, resume].filter(Boolean).join('; ');
    throw err;
  }
  if (result.interrupted) {
    const e = new InterruptedError(`interrupted: ${notSent} ${o.noun} not sent`);
    e.hint = resume;
    throw e;
  }
  if (failed) throw new PartialFailureError(`${failed} of ${outcomes.length} ${o.noun} rejected`);
}
