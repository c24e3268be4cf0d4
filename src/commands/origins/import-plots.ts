// `sct origins import --file plots.geojson`: the checks of `origins check` first (any error:
// exit 2, nothing sent), then one origin per feature through the shared import run (journal,
// Idempotency-Keys, report, exit 3 on partial failure), as for a CSV file. The read-check-build
// step (readPlotUnits) is also what `origins sync` reads a GeoJSON file with.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { originCreateSchema, originUpdateSchema, type OriginCreate } from '../../api/schemas/origins.js';
import type { RowProblem } from '../../sync/plan.js';
import { checkPlots, countryDisagreement, countryOf, disagreement, externalIdOf, givesText, idProblem, nameOf, readPlotFile, valueProblem, COUNTRY_PROPERTIES, DESCRIPTION_PROPERTIES, EXTERNAL_ID_PROPERTIES, NAME_PROPERTIES, type CheckedFeature } from '../../geo/index.js';
import type { Outcome, Unit } from '../../bulk/runner.js';
import { writeReportFile } from '../../bulk/report.js';
import { asQuoted, notAllListed } from '../../bulk/csv.js';
import { UsageError, type FieldErrors } from '../../errors.js';
import { keyShown } from '../../util/sanitize.js';
import { parseWorded, zodFieldErrors } from '../shared/body.js';
import { findingLines, parseCommodity, parseCountryFlag, withoutGeometry, geometryAdvice } from './check.js';
import { sendOrigins } from './send.js';
import type { ImportOriginsOptions } from './options.js';
import { stopPoint, withDefaultStopSignals } from '../../util/process.js';

/** One origin of a file (a plot file's or a CSV file's); a sync's says what it lacks to create it. */
export type OriginUnit = Unit<OriginCreate> & { createProblems?: RowProblem[] };

const SHOWN_ERRORS = 50;

export async function importPlots(ctx: Context, opts: ImportOriginsOptions, concurrency: number, stdin: Readable): Promise<void> {
  const { name, units, invalid } = await readPlotUnits(ctx, opts, stdin, 'import');
  await sendOrigins(ctx, opts, { name, units, concurrency, invalid, unit: 'feature' });
}

/**
 * The read-check-build step of a GeoJSON plot file, shared by `origins import` and `origins sync`:
 * read the file, run the checks of `origins check` (findings on stderr; any error: exit 2), then
 * build one origin create body per feature (any invalid feature: exit 2, or with --skip-invalid
 * left out and returned as `invalid`, as a CSV file's rows). Nothing is sent.
 * For a sync, a feature without an external_id is invalid too: it could never be matched with an
 * origin.
 */
export async function readPlotUnits(
  ctx: Context,
  opts: { file: string; nameProperty?: string; countryCode?: string; commodity?: string; report?: string; skipInvalid?: boolean },
  stdin: Readable,
  purpose: 'import' | 'sync',
): Promise<{ name: string; units: OriginUnit[]; invalid: Outcome[] }> {
  const countryCode = parseCountryFlag(opts.countryCode);
  const commodity = parseCommodity(opts.commodity);
  const file = await readPlotFile(opts.file, stdin, ctx.signal);
  // A stop while the file was read; then the check, synchronous (minutes at worst), during which
  // Ctrl-C ends sct at once: nothing has been sent.
  await stopPoint(ctx.signal);
  // A sync reads a feature without a geometry as one without a location (never compared, never
  // sent), as it reads an empty location cell: `origins list -o geojson` writes such origins so.
  const checked = withDefaultStopSignals(() => checkPlots(file, { countryCode, nameProperty: opts.nameProperty, commodity, noGeometryIsNoLocation: purpose === 'sync' }));
  for (const line of findingLines(ctx.io, checked.findings, 'stderr')) ctx.io.error(line);
  const errors = checked.summary.errors;
  if (errors > 0) {
    const refused: FieldErrors = {};
    for (const f of checked.findings) if (f.level === 'error') (refused[`${f.feature === null ? 'file' : `feature ${f.feature}`}, geometry`] ??= []).push(f.message);
    reportInvalid(ctx, opts.report, refused, keysOf(checked.features));
    const skipping = opts.skipInvalid ? '--skip-invalid does not leave out plots the registry would refuse: ' : '';
    const missing = withoutGeometry(checked.findings);
    if (missing) {
      const others = errors - missing.count;
      throw new UsageError(
        `${file.name}: ${missing.text}: an origin is imported with its plot${others ? `, and ${others === 1 ? 'an error' : `${others} errors`} the registry would refuse` : ''}; nothing was sent`,
        {},
        `${skipping}${geometryAdvice(missing.count)}; \`sct origins sync --file FILE\` creates an origin without a location from a feature whose geometry is null`,
      );
    }
    throw new UsageError(`${file.name}: ${errors === 1 ? 'an error' : `${errors} errors`} the registry would refuse; nothing was sent`, {}, `${skipping}fix them and ${purpose} again (\`sct origins check FILE --map plots.svg\` draws where the plots are)`);
  }

  const problems: FieldErrors = {};
  const units = plotUnits(checked.features, { countryCode, nameProperty: opts.nameProperty, sync: purpose === 'sync' }, problems);
  const invalid = Object.keys(problems);
  if (invalid.length > 0 && opts.skipInvalid) {
    // As a CSV file's invalid rows: left out and reported, the others sent, exit 3 at the end.
    const left = invalidOutcomes(problems, keysOf(checked.features));
    const lines = new Set(left.map((o) => o.lines[0]!));
    ctx.io.warn(`${file.name}: ${left.length} invalid feature${left.length === 1 ? '' : 's'} left out (--skip-invalid): ${left.slice(0, 5).map((o) => keyShown(o.key)).join(', ')}${left.length > 5 ? ', …' : ''}`);
    return { name: file.name, units: units.filter((u) => !lines.has(u.lines[0]!)), invalid: left };
  }
  if (invalid.length > 0) {
    reportInvalid(ctx, opts.report, problems, keysOf(checked.features));
    const shown = Object.fromEntries(Object.entries(problems).slice(0, SHOWN_ERRORS));
    const features = new Set(invalid.map((k) => k.split(',')[0])).size;
    const listed = Object.keys(shown).length;
    throw new UsageError(`${file.name}: ${features} invalid feature${features === 1 ? '' : 's'}; nothing was sent${notAllListed(listed, Object.keys(problems).length - listed)}`, shown);
  }
  // As a CSV file without rows: a run that would send nothing and say "0 created" is no success.
  if (units.length === 0) throw new UsageError(`${file.name}: no plots to ${purpose}; nothing was sent`);
  return { name: file.name, units, invalid: [] };
}

/**
 * The --report of a file refused whole, as every bulk run writes it: one `invalid` row per
 * feature (a finding about the file itself as feature 0), its fields and messages.
 */
function reportInvalid(ctx: Context, report: string | undefined, problems: FieldErrors, keys: ReadonlyMap<number, string>): void {
  if (!report) return;
  writeReportFile(report, invalidOutcomes(problems, keys), { csvFormulas: ctx.flags.csvFormulas });
}

/** One `invalid` outcome per feature with problems (the file's own as feature 0), in the file's order. */
function invalidOutcomes(problems: FieldErrors, keys: ReadonlyMap<number, string>): Outcome[] {
  const byFeature = new Map<number, Outcome>();
  for (const [where, messages] of Object.entries(problems)) {
    const [subject, field] = where.split(', ');
    const n = subject === 'file' ? 0 : Number(subject!.replace('feature ', ''));
    let o = byFeature.get(n);
    if (!o) byFeature.set(n, (o = { key: n === 0 ? 'file' : (keys.get(n) ?? `feature ${n}`), lines: [n], status: 'invalid', error: 'invalid', fields: {} }));
    (o.fields![field!] ??= []).push(...messages);
  }
  return [...byFeature.values()].sort((a, b) => a.lines[0]! - b.lines[0]!);
}

/** Each feature's key as its unit would have it: its external id, where it has one. */
function keysOf(features: CheckedFeature[]): Map<number, string> {
  const keys = new Map<number, string>();
  for (const { raw } of features) {
    const ext = externalIdOf(raw);
    if (ext !== undefined) keys.set(raw.index, ext);
  }
  return keys;
}

/**
 * One unit per feature. Its key is the external id when it has one (that origin wherever the
 * feature sits in the file), else "feature N"; the journal knows a feature without one by its
 * content, so removing the features that went through and rerunning neither skips nor repeats
 * the others.
 */
export function plotUnits(
  features: CheckedFeature[],
  o: { countryCode?: string; nameProperty?: string; sync?: boolean },
  problems: FieldErrors,
): OriginUnit[] {
  const units: OriginUnit[] = [];
  const externalIndex = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const { raw, geometry } of features) {
    const add = (field: string, message: string) => (problems[`feature ${raw.index}, ${field}`] ??= []).push(asQuoted(message));
    const name = nameOf(raw, o.nameProperty);
    const country = countryOf(raw, o.countryCode);
    const ext = externalIdOf(raw);
    // A number is text the file happened to spell without quotes (`"description": 42`).
    const stated = DESCRIPTION_PROPERTIES.map((n) => raw.properties[n]).find(givesText) ?? raw.properties.description;
    const description = typeof stated === 'number' && Number.isFinite(stated) ? String(stated) : stated;
    const missingName = `required: no ${o.nameProperty ?? NAME_PROPERTIES.join(', ')} property${o.nameProperty ? '' : ' (--name-property names another)'}`;
    const missingCountry = `required: no ${COUNTRY_PROPERTIES.join(', ')} property (--country-code gives one for every feature)`;
    // A sync's feature may update an origin the service holds, which needs only what changes:
    // what a create needs besides is for the plan to judge, as for a CSV row (src/sync/run.ts).
    const toCreate: RowProblem[] = [];
    const required = (column: string, message: string) => (o.sync ? toCreate.push({ line: raw.index, column, message }) : add(column, message));
    // A value of another kind is said as such (not "missing"), and a number read rounded is no id.
    // Two spellings of a field that disagree are said too: sending one would drop the other unsaid.
    const nameProblem = valueProblem(raw.properties, o.nameProperty ? [o.nameProperty] : NAME_PROPERTIES) ?? (o.nameProperty ? undefined : disagreement(raw.properties, NAME_PROPERTIES));
    const countryProblem = valueProblem(raw.properties, COUNTRY_PROPERTIES) ?? countryDisagreement(raw);
    // The feature's id is taken wherever the property gives no text (absent, null, blank: GDAL writes null).
    const extProblem =
      valueProblem(raw.properties, EXTERNAL_ID_PROPERTIES) ?? disagreement(raw.properties, EXTERNAL_ID_PROPERTIES) ?? (EXTERNAL_ID_PROPERTIES.some((n) => givesText(raw.properties[n])) ? undefined : idProblem(raw));
    if (nameProblem) add('name', nameProblem);
    else if (name === undefined) required('name', missingName);
    if (countryProblem) add('country_code', countryProblem);
    else if (country === undefined) required('country_code', missingCountry);
    if (extProblem) add('external_id', extProblem);
    else if (ext === undefined && o.sync) add('external_id', `required: a sync matches each feature with an origin by its external_id (an external_id or EXTERNAL_ID property, or a GeoJSON Feature's id; a KML Placemark's id attribute is the writer's, not read)`);
    if (ext !== undefined) {
      const first = externalIndex.get(ext);
      if (first !== undefined) add('external_id', `${JSON.stringify(ext)} is also feature ${first}'s; each origin needs its own external_id`);
      else externalIndex.set(ext, raw.index);
    }
    const descriptionProblem = disagreement(raw.properties, DESCRIPTION_PROPERTIES);
    if (descriptionProblem) add('description', descriptionProblem);
    const body = {
      name,
      country_code: country,
      ...(ext !== undefined && { external_id: ext }),
      // As the file has it, spaces at either end too (an export's, read back, plans no change).
      ...(typeof description === 'string' && description.trim() !== '' && { description }),
      // None only in a sync's feature without a geometry: no value given, as an empty cell.
      ...(geometry !== undefined && { location: geometry }),
    };
    const parsed = parseWorded(o.sync ? originUpdateSchema : originCreateSchema, body);
    if (!parsed.success) {
      for (const [field, messages] of Object.entries(zodFieldErrors(parsed.error))) {
        if (!problems[`feature ${raw.index}, ${field}`]) for (const m of messages) add(field, m);
      }
    }
    if (!parsed.success || problems[`feature ${raw.index}, external_id`]) continue;
    if (ext !== undefined) {
      units.push({ key: ext, journalKey: `ext:${ext}`, lines: [raw.index], payload: parsed.data as OriginCreate, ...(toCreate.length > 0 && { createProblems: toCreate }) });
    } else {
      const hash = createHash('sha256').update(JSON.stringify(parsed.data)).digest('hex').slice(0, 24);
      const n = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, n);
      units.push({ key: `feature ${raw.index}`, journalKey: `plot:${hash}#${n}`, lines: [raw.index], payload: parsed.data as OriginCreate });
    }
  }
  return units;
}
