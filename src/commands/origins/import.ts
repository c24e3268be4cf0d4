// `sct origins import --file origins.csv`: one origin per CSV row, created through the shared
// import run (journal, deterministic Idempotency-Keys, report, exit 3 on partial failure).
// A plot file (GeoJSON, KML/KMZ, zipped Shapefile, GPX) goes to import-plots.ts instead, one origin per feature.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { REQUIRED } from '../../api/schemas/messages.js';
import { originCreateSchema, originUpdateSchema, parseLocationCell, pointFromLatLng, type OriginCreate } from '../../api/schemas/origins.js';
import { heldObjects, type FileObject, type FileObjects, type ObjectProblems, type RowProblem, type Snapshot } from '../../sync/plan.js';
import type { Outcome } from '../../bulk/runner.js';
import { cellErrorsIn, endDryRun, decimalText, dropReadOnlyColumns, readCsv, RowErrors, refuseUnknownColumns, type CsvFile, type CsvRow, type FileHeader, type NumberStyle, type RowTaker } from '../../bulk/csv.js';
import { readInput, regularFileHead } from '../../util/files.js';
import { PATHS } from '../../api/paths.js';
import { requestsAsMade } from '../shared/dry-run.js';
import { RESOURCE_FIELDS } from '../../api/schemas/fields.js';
import { checkReportPath } from '../../bulk/report.js';
import { parseConcurrency } from '../shared/flags.js';
import { parseWorded, zodFieldErrors } from '../shared/body.js';
import { UsageError } from '../../errors.js';
import { formatByContent, formatByName } from '../../geo/plot-format.js';
import { dryRunSummary, sendOrigins } from './send.js';
import type { ImportOriginsOptions } from './options.js';
import type { FileTemplate } from '../shared/bulk.js';


const IMPORT_COLUMNS = ['name', 'country_code', 'description', 'external_id', 'latitude', 'longitude', 'location'] as const;
const REQUIRED_COLUMNS = ['name', 'country_code'] as const;

/** `--template` of origins import and sync: location is left out, as latitude and longitude say it. */
export const ORIGIN_TEMPLATE: FileTemplate = {
  columns: IMPORT_COLUMNS.filter((c) => c !== 'location'),
  example: {
    name: 'Ferme Kouassi',
    country_code: 'CI',
    description: 'cocoa smallholding, 2.1 ha',
    external_id: 'ORI-CI-0001',
    latitude: '6.8203',
    longitude: '-5.2897',
  },
};
/** Spreadsheet exports often abbreviate the coordinates; these headers are read as the full names. */
const COLUMN_ALIASES: Record<string, string[]> = { latitude: ['lat'], longitude: ['lng', 'lon', 'long'] };

/** Which header of the file holds each known column (the name itself, or an alias of it). */
/** The location as `sct origins list -o csv` writes it: a GeoJSON geometry's two members. */
const EXPORTED_LOCATION = ['location.type', 'location.coordinates'] as const;

/** Every header an origins file may have, aliases and an export's location columns included. */
const KNOWN_COLUMNS = [...IMPORT_COLUMNS, ...Object.values(COLUMN_ALIASES).flat(), ...EXPORTED_LOCATION];

export function importColumnNames(columns: string[]): Record<string, string> {
  const names: Record<string, string> = {};
  for (const c of [...IMPORT_COLUMNS, ...EXPORTED_LOCATION]) {
    names[c] = columns.includes(c) ? c : (COLUMN_ALIASES[c]?.find((a) => columns.includes(a)) ?? c);
  }
  return names;
}

/**
 * The request body of one CSV row, or undefined after adding the row's problems to `errors`
 * (each naming its column as the file's header spells it). Empty cells are left out rather than
 * sent as "".
 */
export function originFromRow(
  row: CsvRow,
  errors: RowErrors,
  names: Record<string, string> = {},
  numbers: NumberStyle = 'point',
  toCreate?: RowProblem[],
): OriginCreate | undefined {
  const header = (col: string) => names[col] ?? col;
  const v = (col: string) => row.values[header(col)]?.trim() ?? '';
  const problems: Array<[string, string]> = [];
  const reported = new Set<string>();
  const add = (column: string, message: string) => {
    reported.add(column);
    problems.push([column, message]);
  };
  // A workbook cell holding a formula's error (#N/A) where the row is read: the row is invalid.
  const broken = cellErrorsIn(row, [...IMPORT_COLUMNS, ...EXPORTED_LOCATION].map(header));
  if (broken.length) {
    for (const [column, message] of broken) errors.add(row.line, column, message);
    return undefined;
  }
  const body: Record<string, unknown> = {};
  // Free text (name, description) as the cell has it: an export's " leading space" or tab
  // (guarded, then unguarded by the reader) reads back unchanged, or a sync would rewrite the
  // service's text. A cell of spaces alone is still no value; codes and ids are trimmed.
  for (const field of ['name', 'country_code', 'description', 'external_id']) {
    if (v(field)) body[field] = field === 'name' || field === 'description' ? row.values[header(field)] : v(field);
  }

  const lat = v('latitude');
  const lng = v('longitude');
  let loc = v('location');
  // An export's location.type and location.coordinates read back as the geometry they are.
  const exported = EXPORTED_LOCATION.map(v);
  if (exported.some(Boolean) && !loc) {
    if (exported.every(Boolean)) loc = `{"type":${JSON.stringify(exported[0])},"coordinates":${exported[1]}}`;
    else add('location', `${exported[0] ? 'location.coordinates' : 'location.type'} is empty: an exported location needs both columns`);
  } else if (exported.some(Boolean)) add('location', 'give the location once: location, or location.type and location.coordinates');
  if (loc && (lat || lng)) {
    add('location', `give either location or ${header('latitude')}/${header('longitude')}, not both`);
  } else if (loc) {
    try {
      body.location = parseLocationCell(loc);
    } catch (err) {
      add('location', (err as Error).message);
    }
  } else if (lat && lng) {
    let column = 'latitude';
    try {
      const latText = decimalText(lat, numbers, { max: 90 });
      column = 'longitude';
      const lngText = decimalText(lng, numbers, { max: 180 });
      column = 'latitude';
      body.location = pointFromLatLng(latText, lngText);
    } catch (err) {
      const message = (err as Error).message;
      add(message.startsWith('longitude') ? 'longitude' : column, message);
    }
  } else if (lat || lng) {
    add(lat ? 'longitude' : 'latitude', `missing (${header(lat ? 'latitude' : 'longitude')} is given)`);
  }

  // A sync's row may update an origin the service holds, so it is checked as an update; what a
  // create needs besides is said in `toCreate`, for the plan to judge (src/sync/run.ts).
  const parsed = parseWorded(toCreate ? originUpdateSchema : originCreateSchema, body);
  if (!parsed.success) {
    for (const [field, messages] of Object.entries(zodFieldErrors(parsed.error))) {
      if (!reported.has(field)) for (const m of messages) add(field, m);
    }
  } else if (toCreate) {
    for (const field of REQUIRED_COLUMNS) if (!body[field]) toCreate.push({ line: row.line, column: header(field), message: REQUIRED });
  }
  // Reported in the file's column order, so a row's messages read left to right.
  const rank = (c: string) => (IMPORT_COLUMNS as readonly string[]).indexOf(c) >>> 0;
  problems.sort((a, b) => rank(a[0]) - rank(b[0]));
  for (const [column, message] of problems) errors.add(row.line, header(column), message);
  return problems.length === 0 && parsed.success ? (parsed.data as OriginCreate) : undefined;
}

export type { OriginUnit } from './import-plots.js';
import type { OriginUnit } from './import-plots.js';

/**
 * Units of work for the rows, with their stable identities: a row with an external_id is that
 * origin wherever it sits in the file; one without is known by its content, so deleting the
 * rows that went through and rerunning neither skips nor repeats the others.
 */
export async function originUnits(rows: CsvRow[], errors: RowErrors, names: Record<string, string> = {}, numbers: NumberStyle = 'point', sync = false): Promise<OriginUnit[]> {
  const units: OriginUnit[] = [];
  const plots = new PlotCells();
  const add = originUnitMaker(errors, names, numbers, sync, (unit) => units.push(unit), undefined, plots);
  for (const row of rows) add(row);
  await plots.check(errors);
  return units;
}

/** A plot (a Polygon, a MultiPolygon) a CSV row gives in its location cell. */
interface PlotCell {
  line: number;
  column: string;
  geometry: unknown;
  country: string | undefined;
}

/**
 * The plots and points of a CSV file's rows, checked once the file is read: a plot as a plot
 * file's is (`origins check`: a ring that crosses itself, a plot outside its country, a
 * LineString), a point for latitude and longitude swapped. A point is five numbers (a file may
 * hold a million): its line, longitude, latitude, and its country and column as indexes of `texts`.
 */
class PlotCells {
  private readonly plots: PlotCell[] = [];
  private readonly points: number[] = [];
  private readonly texts: string[] = [];
  private readonly textIndex = new Map<string, number>();
  readonly countryless = new PointsWithoutCountry();

  get size(): number {
    return this.plots.length + this.points.length / 5;
  }

  /**
   * Without a country, a sync row's point (`key`: its external_id) waits in `countryless` for the
   * country the service holds for it.
   */
  add(line: number, column: string, geometry: { type?: unknown; coordinates?: unknown }, country: string | undefined, key?: string): void {
    if (geometry.type !== 'Point') return void this.plots.push({ line, column, geometry, country });
    // A point is checked against its country only: its numbers are in range (the schema's).
    const [lng, lat] = geometry.coordinates as [number, number];
    if (country !== undefined) this.points.push(line, lng, lat, this.indexOf(country), this.indexOf(column));
    else if (key !== undefined) this.countryless.add(key, line, column, [lng, lat]);
  }

  /** Loads the geo code only for a file that has something to check. */
  async check(errors: RowErrors): Promise<void> {
    if (this.size === 0) return;
    const geo = await import('../../geo/plot-checks.js');
    for (const p of this.plots) for (const message of geo.plotErrors(p.geometry, p.country)) errors.add(p.line, p.column, message);
    // A point only when its latitude and longitude look swapped (outside its country, inside it
    // the other way round): the country outlines leave out small islands (San Andrés, Fernando de
    // Noronha), whose farms a plain "outside the country" would refuse.
    const pts = this.points;
    for (let i = 0; i < pts.length; i += 5) {
      const [line, lng, lat] = [pts[i]!, pts[i + 1]!, pts[i + 2]!];
      const outside = swapOf(geo, [lng, lat], this.texts[pts[i + 3]!]!);
      if (outside) errors.add(line, this.texts[pts[i + 4]!]!, swapMessage(outside, [lng, lat]));
    }
  }

  private indexOf(text: string): number {
    let at = this.textIndex.get(text);
    if (at === undefined) this.textIndex.set(text, (at = this.texts.push(text) - 1));
    return at;
  }
}

/**
 * How far outside `country` a point lies when its latitude and longitude look swapped ("1,360 km
 * outside Côte d'Ivoire (CI)"), or undefined: only a swap, never a point merely outside the
 * country's outline (the outlines leave out small islands: San Andrés, Fernando de Noronha).
 */
function swapOf(geo: typeof import('../../geo/plot-checks.js'), [lng, lat]: readonly [number, number], country: string): string | undefined {
  for (const message of geo.plotErrors({ type: 'Point', coordinates: [lng, lat] }, country)) {
    const outside = geo.swappedOutside(message);
    if (outside) return outside;
  }
  return undefined;
}

/** A point's swap, said latitude first as a CSV row gives it ("outside" as swapOf says it). */
function swapMessage(outside: string, [lng, lat]: readonly [number, number]): string {
  return `latitude and longitude look swapped: the point lies ${outside}; did you mean latitude ${lng}, longitude ${lat}?`;
}

/**
 * The points a sync's file gives without a country (a row that updates needs only its key and
 * what changes), each checked for latitude and longitude swapped against the country the service
 * holds for its origin, once the service has been read. Kept as numbers, as PlotCells keeps its
 * points: an update-only file may hold a million.
 */
export class PointsWithoutCountry {
  private readonly keys: string[] = [];
  /** Per point: its line, longitude, latitude and its column as an index of `columns`. */
  private readonly numbers: number[] = [];
  private readonly columns: string[] = [];

  add(key: string, line: number, column: string, [lng, lat]: readonly [number, number]): void {
    let at = this.columns.indexOf(column);
    if (at < 0) at = this.columns.push(column) - 1;
    this.keys.push(key);
    this.numbers.push(line, lng, lat, at);
  }

  /** The problems of the points whose origin the service holds with a country; `wanted` leaves out rows already refused. */
  async check(service: ReadonlyMap<string, Snapshot>, wanted: (key: string, line: number) => boolean): Promise<ObjectProblems[]> {
    if (this.keys.length === 0) return [];
    const geo = await import('../../geo/plot-checks.js');
    const found: ObjectProblems[] = [];
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      const [line, lng, lat, column] = [this.numbers[i * 4]!, this.numbers[i * 4 + 1]!, this.numbers[i * 4 + 2]!, this.numbers[i * 4 + 3]!];
      const country = service.get(key)?.country_code;
      if (typeof country !== 'string' || country === '' || !wanted(key, line)) continue;
      const outside = swapOf(geo, [lng, lat], country.toUpperCase());
      if (outside) found.push({ key, lines: [line], problems: [{ line, column: this.columns[column]!, message: swapMessage(`${outside}, the origin's country on the service`, [lng, lat]) }] });
    }
    return found;
  }
}

/**
 * originUnits one row at a time, as the file is read: a file of a million rows is never held as
 * rows. Each unit goes to `emit`; without it the rows are only checked. `invalid`: the lines an
 * earlier reading of the same file found invalid, left out without checking the file again for
 * external_ids given twice (which would hold every one of them once more).
 */
function originUnitMaker(
  errors: RowErrors,
  names: Record<string, string>,
  numbers: NumberStyle,
  sync: boolean,
  emit?: (unit: OriginUnit) => void,
  invalid?: ReadonlySet<number>,
  plots?: PlotCells,
): (row: CsvRow) => void {
  const externalLines = new Map<string, number>();
  const seen = new Map<string, number>();
  const add = (row: CsvRow) => {
    if (invalid?.has(row.line)) return;
    const toCreate: RowProblem[] | undefined = sync ? [] : undefined;
    const body = originFromRow(row, errors, names, numbers, toCreate);
    const location = body?.location as { type?: unknown } | null | undefined;
    const ext = row.values[names.external_id ?? 'external_id']?.trim();
    if (plots && location) {
      const column = row.values[names.latitude ?? 'latitude']?.trim()
        ? (names.latitude ?? 'latitude')
        : row.values[names.location ?? 'location']?.trim() ? (names.location ?? 'location') : 'location.coordinates';
      plots.add(row.line, column, location, body!.country_code, sync && ext ? ext : undefined);
    }
    if (ext && !invalid) {
      const first = externalLines.get(ext);
      if (first !== undefined) {
        errors.add(row.line, 'external_id', `"${ext}" is also on line ${first}; each origin needs its own external_id`);
        return;
      }
      externalLines.set(ext, row.line);
    }
    if (!body || !emit) return;
    if (ext) {
      emit(new OriginRow(row.line, body, ext, undefined, toCreate));
    } else {
      const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 24);
      const n = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, n);
      emit(new OriginRow(row.line, body, undefined, `row:${hash}#${n}`));
    }
  };
  return add;
}

/**
 * One row's origin, its key, lines and journal key made when asked for: a file of a million rows
 * would hold three million small strings and arrays beside the origins themselves.
 */
class OriginRow implements OriginUnit {
  constructor(
    private readonly line: number,
    readonly payload: OriginCreate,
    private readonly externalId: string | undefined,
    /** The journal key of a row without an external_id: its content and its count among equal rows. */
    private readonly byContent: string | undefined,
    readonly createProblems?: RowProblem[],
  ) {}

  get key(): string {
    return this.externalId ?? `line ${this.line}`;
  }

  get lines(): number[] {
    return [this.line];
  }

  get journalKey(): string {
    return this.byContent ?? `ext:${this.externalId}`;
  }
}

export async function importOrigins(ctx: Context, opts: ImportOriginsOptions): Promise<void> {
  checkReportPath(opts.report, opts.force, opts.file);
  const concurrency = parseConcurrency(opts.concurrency);
  const input = await sniffInput(opts.file, ctx.io.stdin, ctx.signal);
  if (input.plots) return (await import('./import-plots.js')).importPlots(ctx, opts, concurrency, input.stdin);
  if (opts.nameProperty !== undefined || opts.countryCode !== undefined || opts.commodity !== undefined) {
    throw new UsageError('--name-property, --country-code and --commodity are for plot files (GeoJSON, KML, Shapefile, GPX): in a CSV file each row has its name and country_code columns');
  }
  // A CSV file (it comes row by row) is read twice: once to check every row, keeping only what the
  // duplicate checks need, then to make each origin as its row comes, written at once by a dry
  // run. A million origins held at once took more than the spec's 500 MB (docs/decisions/memory.md).
  const bytes = await readInput(opts.file, input.stdin, { signal: ctx.signal });
  const read = (first: boolean, take: TakeRows) => readOriginRows(ctx, opts, input.stdin, bytes, first, take);
  let errors: RowErrors | undefined;
  // A workbook comes whole, not row by row: read once, its origins kept (reading it again would
  // cost as much as the first time, and write nothing sooner).
  let lineByLine = false;
  let units: OriginUnit[] = [];
  const plots = new PlotCells();
  const csv = await read(true, (header, names) => {
    lineByLine = header.lineByLine;
    return originUnitMaker((errors = new RowErrors(header.name)), names, header.numbers, false, lineByLine ? undefined : (unit) => units.push(unit), undefined, plots);
  });
  await plots.check(errors!);
  const invalid = errors!.settle(ctx, opts);
  if (plots.size > 0) {
    const bad = errors!.lines();
    units = units.filter((u) => !bad.has(u.lines[0]!));
  }
  if (!lineByLine) return sendOrigins(ctx, opts, { name: csv.name, units, concurrency, invalid });
  // The second reading makes what the first found valid (the same bytes read the same way).
  const invalidLines = errors!.lines();
  const again = (emit: (unit: OriginUnit) => void): TakeRows => (header, names) => originUnitMaker(new RowErrors(header.name), names, header.numbers, false, emit, invalidLines);
  if (opts.dryRun) {
    const out = requestsAsMade(ctx, PATHS.origins);
    await read(false, (header, names) => {
      const add = again((unit) => out.add(unit.payload))(header, names);
      // The reading waits for the writing (rows come line by line here: see ReadOptions.takeRows).
      return (row) => {
        add(row);
        return out.afterRow();
      };
    });
    dryRunSummary(ctx, csv.name, await out.end());
    return endDryRun(csv.name, invalid);
  }
  await read(false, again((unit) => units.push(unit)));
  await sendOrigins(ctx, opts, { name: csv.name, units, concurrency, invalid });
}

/** One origin of the file as a sync compares it: the body `origins import` would send. */
export function syncObjectOf(u: OriginUnit): FileObject {
  return { key: u.key, lines: u.lines, body: u.payload, createProblems: u.createProblems };
}

/**
 * The CSV file of an origin sync, read as `origins import` reads it but with external_id required
 * on every row. A plan to apply, or written as one JSON document, holds the origins (`holds`);
 * else the file is checked first, keeping only each origin's key and what the few that cannot
 * be created lack, then its origins are made again each time the sync asks for them
 * (FileObjects). A workbook comes whole and its origins are held.
 */
export async function originsToSync(ctx: Context, opts: ImportOriginsOptions, stdin: Readable, holds: boolean): Promise<{ objects: FileObjects; invalid: Outcome[] }> {
  const bytes = await readInput(opts.file, stdin, { signal: ctx.signal });
  // A plan only shown keeps nothing of the file: V8 may be held close to what is live.
  const read = (first: boolean, take: TakeRows) => readOriginRows(ctx, opts, stdin, bytes, first, take, { required: ['external_id'], keepsAll: holds });
  let errors: RowErrors | undefined;
  let lineByLine = false;
  const units: OriginUnit[] = [];
  const lineOf = new Map<string, number>();
  const lacking = new Map<string, { lines: number[]; problems: RowProblem[] }>();
  const plots = new PlotCells();
  await read(true, (header, names) => {
    lineByLine = header.lineByLine;
    const found = (errors = new RowErrors(header.name));
    const add = originUnitMaker(found, names, header.numbers, true, (unit) => {
      if (!lineByLine || holds) return void units.push(unit);
      lineOf.set(unit.key, unit.lines[0]);
      if (unit.createProblems?.length) lacking.set(unit.key, { lines: unit.lines, problems: unit.createProblems });
    }, undefined, plots);
    return (row) => {
      // An import can create a row without one; a sync cannot find it again on the next night.
      if (!row.values[names.external_id ?? 'external_id']?.trim()) found.add(row.line, 'external_id', 'required: a sync matches each row with an origin by its external_id');
      add(row);
    };
  });
  await plots.check(errors!);
  const invalid = errors!.settle(ctx, opts);
  const bad = errors!.lines();
  const againstService = (service: ReadonlyMap<string, Snapshot>) => plots.countryless.check(service, (_key, line) => !bad.has(line));
  if (!lineByLine || holds) return { objects: { ...heldObjects(units.filter((u) => !bad.has(u.lines[0])).map(syncObjectOf)), againstService }, invalid };
  // A row found invalid once its origin was taken (a plot outside its country) is no object.
  for (const [key, line] of lineOf) {
    if (!bad.has(line)) continue;
    lineOf.delete(key);
    lacking.delete(key);
  }
  const each: FileObjects['each'] = async (take, afterEach) => {
    await read(false, (header, names) => {
      const add = originUnitMaker(new RowErrors(header.name), names, header.numbers, true, (unit) => take(syncObjectOf(unit)), bad);
      return (row) => {
        add(row);
        return afterEach?.();
      };
    });
  };
  return { objects: { keys: new Set(lineOf.keys()), lacking, each, againstService }, invalid };
}

/** What a reading does with the rows of a file whose header it has read (and checked). */
type TakeRows = (header: FileHeader, names: Record<string, string>) => RowTaker;

/**
 * One reading of an origins CSV file from its bytes; the columns the service sets are announced
 * on the first only. A sync requires only external_id (name and country_code only to create).
 */
function readOriginRows(
  ctx: Context,
  opts: ImportOriginsOptions,
  stdin: Readable,
  bytes: Buffer,
  first: boolean,
  takeRows: TakeRows,
  o: { required?: readonly string[]; keepsAll?: boolean } = {},
): Promise<CsvFile> {
  return readCsv(opts.file, stdin, [...(o.required ?? REQUIRED_COLUMNS)], {
    ...opts,
    known: KNOWN_COLUMNS,
    input: bytes,
    keepsAll: o.keepsAll,
    signal: ctx.signal,
    takeRows: (header) => {
      dropReadOnlyColumns(first ? ctx.io : { info: () => undefined }, header, KNOWN_COLUMNS, RESOURCE_FIELDS.origin);
      const names = importColumnNames(header.columns);
      refuseUnknownColumns(header, Object.values(names), IMPORT_COLUMNS);
      return takeRows(header, names);
    },
  });
}

/**
 * GeoJSON by its extension, else by its first character: a CSV file never starts with "{". A
 * ZIP is a plot file unless it is a workbook (.xlsx, .ods), which the CSV reader reads.
 * Standard input is read whole to look at it, and handed on as a new stream.
 */
export async function sniffInput(file: string, stdin: Readable, signal?: AbortSignal): Promise<{ plots: boolean; stdin: Readable }> {
  if (formatByName(file)) return { plots: true, stdin };
  let head: Buffer;
  const whole = file === '-';
  if (whole) {
    head = await readInput('-', stdin, { signal });
    stdin = Readable.from([head]);
  } else {
    // A FIFO or a device (read as CSV, or as the plot file its name says), or a file that cannot
    // be read (the CSV reader says what is wrong with it).
    const read = await regularFileHead(file);
    if (!read) return { plots: false, stdin };
    head = read;
  }
  const format = formatByContent(head);
  if (format === 'shapefile') {
    // A ZIP is plots when it holds them (a .shp, a .kml); any other (a workbook, an .xlsb, a
    // damaged or unrelated archive) goes to the table reader, which says what it looks like.
    const { unzipSync } = await import('fflate');
    const bytes = whole ? head : await readFile(file).catch(() => head);
    let plots = false;
    try {
      unzipSync(bytes, { filter: (f) => ((plots ||= /\.(shp|kml)$/i.test(f.name)), false) });
    } catch {
      plots = false;
    }
    return { plots, stdin };
  }
  return { plots: format !== undefined, stdin };
}
