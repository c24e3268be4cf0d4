// `sct origins check FILE…`: the EUDR checks of plot files, offline (no token, no request).
// Findings go to stdout as compiler-style lines for people, or as objects with -o json/ndjson/csv;
// exit 2 when any is an error. `--map` also draws the plots as SVG. This module and the geo
// layer it imports are loaded only by the commands that read plot files (see origins.ts).
import { writeFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import * as geo from '../../geo/index.js';
import type { CheckResult, Finding, Summary } from '../../geo/index.js';
import type { IOStreams } from '../../output/iostreams.js';
import { writeList } from '../../output/format.js';
import { cleanCell } from '../../util/sanitize.js';
import { plural } from '../../util/format.js';
import { UsageError } from '../../errors.js';
import { fileLabel, inputName } from '../../util/files.js';
import { stopPoint, withDefaultStopSignals } from '../../util/process.js';
import { parseCountryCodes } from '../shared/list.js';
import { parseEnum } from '../shared/flags.js';
import { COMMODITIES } from '../../api/enums.js';
import type { CheckOriginsOptions } from './options.js';

export const FINDING_COLUMNS = [
  { header: 'FILE', path: 'file' },
  { header: 'FEATURE', path: 'feature' },
  { header: 'ID', path: 'id' },
  { header: 'NAME', path: 'name' },
  { header: 'LEVEL', path: 'level' },
  { header: 'MESSAGE', path: 'message' },
  { header: 'POSITION', path: 'position' },
  { header: 'CODE', path: 'code' },
];

/** --commodity, checked against the commodities the service knows. */
export function parseCommodity(value: string | undefined): string | undefined {
  return parseEnum(value?.toLowerCase(), '--commodity', COMMODITIES);
}

/** The one country code --country-code gives, checked and upper-cased. */
export function parseCountryFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const codes = parseCountryCodes(value, '--country-code')!;
  if (codes.length > 1) throw new UsageError('--country-code takes one country code (features name their own with a country_code property)');
  return codes[0];
}

export async function checkOrigins(ctx: Context, opts: CheckOriginsOptions, files: string[]): Promise<void> {
  const countryCode = parseCountryFlag(opts.countryCode);
  const commodity = parseCommodity(opts.commodity);
  if (files.filter((f) => f === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
  const results: CheckResult[] = [];
  // Files sct could not read at all (not there, a .prj it cannot use): no verdict of the registry's.
  const unread = new Set<CheckResult>();
  // Files are named by their base names, unless two share one (a/plots.geojson, b/plots.geojson):
  // then by the paths given, so that each finding says which.
  const labels = files.map(fileLabel);
  // Standard input is "stdin", unless a file is named so too.
  const named = (i: number) => (labels.indexOf(labels[i]!) !== labels.lastIndexOf(labels[i]!) ? (files[i] === '-' ? 'standard input (-)' : inputName(files[i]!)) : labels[i]!);
  for (const [i, file] of files.entries()) {
    let parsed;
    let readable = true;
    try {
      parsed = await geo.readPlotFile(file, ctx.io.stdin, ctx.signal);
      parsed.name = named(i);
    } catch (err) {
      // One file sct cannot read (a .prj it cannot use) among several is that file's finding:
      // the others are still checked, as beside a file that is not GeoJSON.
      if (!(err instanceof UsageError) || files.length === 1) throw err;
      const label = labels[i]!;
      parsed = { name: named(i), size: 0, features: [], problem: err.message.startsWith(`${label}: `) ? err.message.slice(label.length + 2) : err.message };
      readable = false;
    }
    // A stop while the file was read is heard before the check. The check is long synchronous
    // work at worst (a MultiPolygon of thousands of parts that all meet: minutes), during which
    // no signal handler can run: Ctrl-C then ends sct at once, as for any command that has
    // written nothing.
    await stopPoint(ctx.signal);
    const result = withDefaultStopSignals(() => geo.checkPlots(parsed, { countryCode, nameProperty: opts.nameProperty, commodity }));
    if (!readable) unread.add(result);
    results.push(result);
  }

  const format = ctx.format();
  // The findings as lines for people; --columns asks for a table of those fields, as in every format.
  if (format === 'table' && ctx.columns() === undefined) {
    await ctx.io.write(results.map((r) => [...findingLines(ctx.io, r.findings, 'stdout'), summaryLine(r.summary)].join('\n') + '\n').join(''));
    if (results.length > 1) await ctx.io.write(summaryLine(total(results)) + '\n');
  } else {
    await writeList(ctx.io, results.flatMap((r) => r.findings), ctx.output(FINDING_COLUMNS));
    for (const r of results) ctx.io.info(summaryLine(r.summary));
  }

  if (opts.map) {
    await writeFile(opts.map, drawMap(results, files));
    ctx.io.info(`map of ${results.reduce((n, r) => n + r.features.filter((f) => f.geometry).length, 0)} plots written to ${opts.map}`);
  }

  const errors = results.reduce((n, r) => n + r.summary.errors, 0);
  if (errors > 0) {
    const bad = results.filter((r) => r.summary.errors > 0 && !unread.has(r));
    // Features without a geometry are said as such, with what to do: "would refuse" alone leaves
    // the reader to find which rule, and an export of origins without a location meets it.
    const missing = bad.map((r) => withoutGeometry(r.findings, bad.length > 1 ? `${r.summary.file} ` : '')).filter((m) => m !== undefined);
    const badErrors = bad.reduce((n, r) => n + r.summary.errors, 0);
    const counted = plural(badErrors, 'error');
    const missingCount = missing.reduce((n, m) => n + m.count, 0);
    const others = badErrors - missingCount;
    const refused = !bad.length
      ? undefined
      : missing.length
        ? `${counted} in ${bad.map((r) => r.summary.file).join(', ')}: ${missing.map((m) => m.text).join('; ')}: the registry needs one for every feature; ${geometryAdvice(missingCount)}${others ? `; it would refuse the ${plural(others, 'other error')} too` : ''}`
        : `${counted} in ${bad.map((r) => r.summary.file).join(', ')}: the registry would refuse ${bad.length === 1 ? 'this file' : 'these files'}`;
    const cannotRead = unread.size ? `sct cannot read ${[...unread].map((r) => r.summary.file).join(', ')}` : undefined;
    throw new UsageError([refused, cannotRead].filter(Boolean).join('; '));
  }
}

function drawMap(results: CheckResult[], files: string[]): string {
  const plots = results.flatMap((r) => {
    const errors = errorsByFeature(r.findings);
    return r.features.flatMap((f) => {
      if (!f.geometry) return [];
      const label = `${results.length > 1 ? `${r.summary.file}: ` : ''}${geo.featureLabel(f.raw)}${f.error ? ': ' + (errors.get(f.raw.index) ?? []).join('; ') : ''}`;
      const tag = results.length > 1 ? `${r.summary.file} ${f.raw.index}` : String(f.raw.index);
      return [{ index: f.raw.index, tag, label, geometry: f.geometry, error: f.error }];
    });
  });
  const codes = [...new Set(results.flatMap((r) => r.features.map((f) => f.country).filter((c): c is string => c !== undefined)))];
  const countries = codes.map((c) => geo.countryOutline(c)).filter((c) => c !== undefined);
  return geo.renderPlotMap({ title: files.map(inputName).join(', '), plots, countries, context: geo.allOutlines() });
}

/** Each feature's error messages, by its index: read once, not once per feature (a map of 80,000 plots). */
function errorsByFeature(findings: Finding[]): Map<number | null, string[]> {
  const byFeature = new Map<number | null, string[]>();
  for (const x of findings) {
    if (x.level !== 'error') continue;
    const list = byFeature.get(x.feature);
    if (list) list.push(x.message);
    else byFeature.set(x.feature, [x.message]);
  }
  return byFeature;
}

/** `plots.geojson: feature 3 (GH-0042 "Owusu farm"): error: …`, one line per finding, as compilers print them. */
export function findingLines(io: IOStreams, findings: Finding[], stream: 'stdout' | 'stderr'): string[] {
  const color = stream === 'stdout' ? io.color : io.colorErr;
  return findings.map((x) => {
    // Cut as a label (the finding keeps them whole in -o json).
    const extra = [x.id && geo.labelText(x.id), x.name !== undefined && x.name !== x.id ? JSON.stringify(geo.labelText(x.name)) : undefined].filter(Boolean).join(' ');
    const where = x.feature === null ? '' : ` feature ${x.feature}${extra ? ` (${extra})` : ''}:`;
    const level = x.level === 'error' ? color.red('error') : color.yellow('warning');
    return cleanCell(`${x.file}:${where} `) + `${level}: ${cleanCell(x.message)}`;
  });
}

/**
 * The features of a file that have no geometry, said as "feature 3 (GH-0042) has no geometry" or
 * "features 1 (A), 4 (B) have no geometry" (the first 10 named), and how many; undefined when none.
 */
export function withoutGeometry(findings: Finding[], file = ''): { text: string; count: number } | undefined {
  const found = findings.filter((x) => x.level === 'error' && x.feature !== null && x.message === geo.NO_GEOMETRY);
  if (found.length === 0) return undefined;
  const named = found.slice(0, 10).map((x) => {
    const label = x.id ?? x.name;
    return `${x.feature}${label !== undefined ? ` (${geo.labelText(label)})` : ''}`;
  });
  const more = found.length > 10 ? ` and ${(found.length - 10).toLocaleString('en-US')} more` : '';
  return { text: cleanCell(`${file}feature${found.length === 1 ? '' : 's'} ${named.join(', ')}${more} ${found.length === 1 ? 'has' : 'have'} no geometry`), count: found.length };
}

/** What to do with features that have no geometry, for one or for several. */
export function geometryAdvice(count: number): string {
  return `give ${count === 1 ? 'it' : 'each one'} a Point, Polygon or MultiPolygon, or leave it out`;
}

export function summaryLine(s: Summary): string {
  const findings = s.errors + s.warnings === 0 ? 'no findings' : [s.errors && plural(s.errors, 'error'), s.warnings && plural(s.warnings, 'warning')].filter(Boolean).join(', ');
  const unmeasured = s.unmeasured ? `, ${plural(s.unmeasured, 'polygon')} with errors not counted in the area` : '';
  return cleanCell(`${s.file}: ${plural(s.features, 'feature')} (${plural(s.points, 'point')}, ${plural(s.polygons, 'polygon')}, ${geo.formatHectares(s.hectares)}${unmeasured}): ${findings}`);
}

function total(results: CheckResult[]): Summary {
  const t: Summary = { file: `${results.length} files`, features: 0, points: 0, polygons: 0, hectares: 0, unmeasured: 0, errors: 0, warnings: 0 };
  for (const { summary: s } of results) {
    t.features += s.features;
    t.points += s.points;
    t.polygons += s.polygons;
    t.hectares += s.hectares;
    t.unmeasured += s.unmeasured;
    t.errors += s.errors;
    t.warnings += s.warnings;
  }
  return t;
}

