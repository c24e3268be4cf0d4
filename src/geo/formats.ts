// Plot files as suppliers send them: GeoJSON, KML and KMZ from Google Earth and field apps,
// zipped Shapefiles from a GIS (reprojected to WGS 84 by their .prj), GPX waypoints from a GPS.
// Each is converted by a well-kept library to GeoJSON and from there read like a GeoJSON file,
// so every format gets the same checks. The libraries load only with the commands that read
// plot files, and togeojson, shpjs and proj4 only when such a file is read.
import { fileLabel, readInput, regularFileHead } from '../util/files.js';
import { damagedText, mismatchedFile, recordedChecksums } from '../util/zip-check.js';
import { textReader, withTextReader } from '../util/text.js';
import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import type { Feature, Geometry } from 'geojson';
// Static: a CommonJS package, whose dynamic import the bundle would hand over as a default export.
import { DOMParser, type Document as XmlDocument, type Element as XmlElement } from '@xmldom/xmldom';
import { UsageError } from '../errors.js';
import { fromGeoJsonValue, parseGeoJson, readGeoJsonFile, type GeoJsonFile } from './geojson.js';
import { formatByContent, formatByName } from './plot-format.js';
import { AREA_PROPERTIES } from './feature-fields.js';
import { ringLengthOrClosure, ringName } from './plot-checks.js';

export async function readPlotFile(file: string, stdin: Readable, signal?: AbortSignal): Promise<GeoJsonFile> {
  const named = file === '-' ? undefined : formatByName(file);
  // What the first bytes say wins over a text format's name (a GPX saved as .kml, a KML as
  // .geojson, a KMZ as .kml): read by its name, its plots were none, and the check said so with
  // exit 0, or a ZIP's bytes were "not UTF-8". A GeoJSON name is checked before the file is read
  // as GeoJSON text; a KML or GPX once it is read.
  const byName = named === 'geojson' ? (formatByContent((await regularFileHead(file)) ?? new Uint8Array(0)) ?? named) : named;
  // GeoJSON is read as text directly: the largest files are GeoJSON, and a Buffer kept beside
  // the text would add its size to the peak.
  if (byName === 'geojson') return readGeoJsonFile(file, stdin, signal);
  const bytes = await readInput(file, stdin, { signal });
  const name = fileLabel(file);
  // A FIFO is known by its content only once read; a UTF-16 file by its byte-order mark.
  const format = byName === 'kml' || byName === 'gpx' ? (formatByContent(bytes) ?? byName) : (byName ?? formatByContent(bytes));
  switch (format) {
    case 'kml':
    case 'gpx': {
      const text = await xmlText(bytes, name, format.toUpperCase());
      if (typeof text !== 'string') return text;
      return converted(await (format === 'kml' ? fromKml(text, name, bytes.length) : fromGpx(text, name, bytes.length)));
    }
    case 'shapefile-part':
      throw new UsageError(`${name}: a Shapefile is read from a .zip of its .shp, .shx, .dbf and .prj, not from one of them alone`, {}, file === '-' ? 'zip the .shp, .shx, .dbf and .prj together and give the .zip' : `zip them together (zip plots.zip ${file.replace(/\.\w+$/, '').split(/[\\/]/).pop()}.*) and give the .zip`);
    case 'kmz':
    case 'shapefile':
      return converted(await fromZip(bytes, name));
    default:
      // Not recognisable as anything else: read as GeoJSON, whose reader says what is wrong.
      return parseGeoJson(bytes.toString('utf8'), name, bytes.length);
  }
}

function converted(file: GeoJsonFile): GeoJsonFile {
  return { ...file, converted: true };
}

/**
 * An XML file's text in the encoding its declaration names (GDAL and Google Earth write UTF-8;
 * older GPS software and hand-made files ISO-8859-1 or Windows-1252), UTF-16 by its byte-order
 * mark; bytes that are not UTF-8 where nothing else is declared are refused, since read as UTF-8
 * they would reach the service as U+FFFD.
 */
async function xmlText(bytes: Uint8Array, name: string, format: string): Promise<string | GeoJsonFile> {
  const refused = (why: string): GeoJsonFile => ({ name, size: bytes.length, features: [], problem: `not ${format}: ${why}` });
  let label = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : undefined;
  if (!label) {
    const declaration = /^(?:\xef\xbb\xbf)?\s*<\?xml[^>]*?\sencoding\s*=\s*["']([^"']+)["']/i.exec(Buffer.from(bytes.subarray(0, 512)).toString('latin1'));
    label = declaration?.[1]?.trim().toLowerCase();
  }
  const decoder = await textReader(label ?? 'utf-8', { fatal: true });
  if (decoder === undefined) {
    return refused(`its XML declaration names the encoding "${label}", which sct cannot read: save it as UTF-8`);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    return refused(
      decoder.encoding === 'utf-8'
        ? `the file is not UTF-8${label ? '' : ' and its XML declaration names no other encoding'}: save it as UTF-8, or declare its encoding (<?xml version="1.0" encoding="ISO-8859-1"?>)`
        : `the file is not valid ${decoder.encoding} as its XML declaration says`,
    );
  }
}

function xmlDocument(text: string, name: string, format: string): XmlDocument | GeoJsonFile {
  try {
    // A byte-order mark is no content (an editor on Windows writes one); the parser's own
    // messages would go to the console: a fatal one is thrown, and said below as sct's.
    const parser = new DOMParser({ onError: () => undefined });
    return parser.parseFromString(text.replace(/^\ufeff/, ''), 'text/xml');
  } catch (err) {
    return { name, size: Buffer.byteLength(text), features: [], problem: `not ${format}: not well-formed XML (${(err as Error).message.split('\n')[0]})` };
  }
}

const NOT_PLOTS = new Set(['networklink', 'groundoverlay']);

async function fromKml(text: string, name: string, size: number): Promise<GeoJsonFile> {
  const doc = xmlDocument(text, name, 'KML');
  return 'nodeType' in doc ? kmlPlots(doc, name, size) : doc;
}

interface NetworkLink {
  name?: string;
  href?: string;
}

/** A KML document's NetworkLinks, in document order: each its own name and the href of its Link (KML 2.0: Url). */
function networkLinks(doc: XmlDocument): NetworkLink[] {
  return Array.from(doc.getElementsByTagName('NetworkLink')).map((link) => {
    const name = Array.from(link.childNodes).find((n) => n.nodeName === 'name')?.textContent?.trim();
    const target = link.getElementsByTagName('Link')[0] ?? link.getElementsByTagName('Url')[0] ?? link;
    const href = target.getElementsByTagName('href')[0]?.textContent?.trim();
    return { ...(name && { name }), ...(href && { href }) };
  });
}

/**
 * What a KML's NetworkLinks that are not read say: their plots are in another file, fetched by
 * Google Earth and never by sct, and left out without a word they would be plots the registry
 * never sees. `missing`: an href a KMZ's main KML names that is not in the archive.
 */
function unreadLinks(links: NetworkLink[], plots: number, missing: (link: NetworkLink) => boolean = () => false): string | undefined {
  if (links.length === 0) return undefined;
  const list = links.map((l) => {
    const target = `${l.href ?? 'no href'}${missing(l) ? ' (not in the archive)' : ''}`;
    return l.name ? `"${l.name}" (${target})` : target;
  });
  const count = `${links.length} NetworkLink${links.length === 1 ? '' : 's'}`;
  const what = plots === 0 ? `the file holds no plots, only ${count}, not read` : `${count} not read, so ${links.length === 1 ? 'its' : 'their'} plots are not checked`;
  return `${what}: ${list.join(', ')}: sct follows only the links of a KMZ to KML files inside it; ${links.length === 1 ? 'give the linked file itself' : 'give the linked files themselves'}`;
}

/** The plots of a parsed KML document; its NetworkLinks a warning, unless `linksSaid` (a KML of a KMZ, whose reader says them). */
async function kmlPlots(doc: XmlDocument, name: string, size: number, linksSaid = false): Promise<GeoJsonFile> {
  const { kml } = await import('@tmcw/togeojson');
  // "lon, lat, alt" with a space after each comma is read by GDAL and Google Earth; togeojson
  // splits tuples at white space and would make each number a position of its own.
  for (const coordinates of Array.from(doc.getElementsByTagName('coordinates'))) {
    const text = coordinates.textContent ?? '';
    if (/\s,|,\s/.test(text)) coordinates.textContent = text.replace(/\s*,\s*/g, ',');
  }
  const collection = kml(doc);
  // togeojson makes a feature of a NetworkLink (a link to another file: fromKmz follows those
  // inside a KMZ, the others are a warning) and of a GroundOverlay (an image laid over the map):
  // neither is a plot. Both come after the Placemarks, whose order the ring problems below count on.
  collection.features = collection.features.filter((f) => !NOT_PLOTS.has(String(f.properties?.['@geometry-type'])));
  // Google Earth writes a plot of several pieces as a MultiGeometry, which togeojson reads as a
  // GeometryCollection: of polygons only, it is a MultiPolygon.
  for (const f of collection.features) {
    f.geometry = joinedPolygons(f.geometry);
    // A Placemark's XML id is the writer's (LIBKML's `layer.1`, `layer.2`: the row number), not
    // the plot's: taken as its external id, a file in another order would swap plots on a sync.
    delete f.id;
    if (f.properties) {
      textOfHtml(f.properties);
      numericAreas(f.properties);
    }
  }
  const file = fromGeoJsonValue(collection, name, size);
  const unread = linksSaid ? undefined : unreadLinks(networkLinks(doc), file.features.length);
  if (unread) file.skipped = unread;
  // togeojson closes an open ring and drops one of fewer than 4 positions without a word; the
  // registry refuses both, so they are read from the file as written. One feature a Placemark,
  // in document order, as togeojson yields them.
  Array.from(doc.getElementsByTagName('Placemark')).forEach((placemark, i) => {
    const problems = kmlRingProblems(placemark);
    const feature = file.features[i];
    if (!feature) return;
    if (problems.length > 0) feature.structure = [...(feature.structure ?? []), ...problems];
    const rings = looseRings(placemark);
    const mixed = mixedMultiGeometry(feature.geometry, rings);
    if (mixed) feature.problem = mixed;
    else if (!feature.problem && rings === 1 && (feature.geometry as { type?: unknown } | null)?.type === 'LineString') feature.problem = BARE_RING;
  });
  return file;
}

/** A value togeojson read from CDATA (`{"@type": "html", value}`: a description so written) is its text. */
function textOfHtml(properties: Record<string, unknown>): void {
  for (const [key, v] of Object.entries(properties)) {
    const html = v as { '@type'?: unknown; value?: unknown } | null;
    if (html && typeof html === 'object' && html['@type'] === 'html' && typeof html.value === 'string') properties[key] = html.value;
  }
}

/**
 * A KML value is text whatever it holds (`<Data><value>1.5</value></Data>`), so a stated area
 * spelt as a number is read as that number; the registry never sees the KML, only what sct
 * sends. In GeoJSON a quoted Area stays text, which the registry reads as 0 (plot-checks.ts).
 */
function numericAreas(properties: Record<string, unknown>): void {
  for (const key of AREA_PROPERTIES) {
    const v = properties[key];
    if (typeof v === 'string' && NUMBER.test(v)) properties[key] = Number(v.trim().replace(',', '.'));
  }
}

/** A number as typed into Google Earth's fields: with a decimal point, or a decimal comma (1,5). */
const NUMBER = /^\s*-?\d+([.,]\d+)?\s*$/;

/** The rings of a Placemark's polygons that are not closed, or have fewer than 4 positions, as written. */
function kmlRingProblems(placemark: XmlElement): string[] {
  const polygons = Array.from(placemark.getElementsByTagName('Polygon'));
  return polygons.flatMap((polygon, pi) =>
    Array.from(polygon.getElementsByTagName('LinearRing')).flatMap((ring, ri) => {
      // As togeojson reads them: "lng,lat[,alt]" tuples apart by white space.
      const text = ring.getElementsByTagName('coordinates')[0]?.textContent ?? '';
      const positions = text
        .trim()
        .split(/\s+/)
        .map((t) => t.split(',').map(Number.parseFloat).filter((n) => !Number.isNaN(n)))
        .filter((p) => p.length >= 2);
      const problem = positions.length > 0 ? ringLengthOrClosure(ringName(pi, ri, polygons.length > 1), positions) : undefined;
      return problem ? [problem.message] : [];
    }),
  );
}

const BARE_RING = `geometry type "LinearRing" is not accepted: a plot is a Point, Polygon or MultiPolygon (a polygon's ring goes in <Polygon><outerBoundaryIs>)`;

/**
 * How many LinearRings the Placemark holds outside a Polygon (its own geometry, or in a
 * MultiGeometry), each of which togeojson reads as a LineString: said so, an error would name a
 * type the file does not have. Counted as togeojson reads them: one of fewer than 2 positions
 * gives no geometry.
 */
function looseRings(parent: XmlElement): number {
  let rings = 0;
  for (let i = 0; i < parent.childNodes.length; i++) {
    const child = parent.childNodes.item(i) as XmlElement;
    if (child.tagName === 'MultiGeometry') rings += looseRings(child);
    else if (child.tagName === 'LinearRing') {
      const text = child.getElementsByTagName('coordinates')[0]?.textContent ?? '';
      const positions = text
        .trim()
        .split(/\s+/)
        .filter((t) => t.split(',').map(Number.parseFloat).filter((n) => !Number.isNaN(n)).length >= 2);
      if (positions.length >= 2) rings++;
    }
  }
  return rings;
}

function joinedPolygons(g: Geometry | null): Geometry | null {
  if (g?.type !== 'GeometryCollection' || g.geometries.length === 0) return g;
  if (g.geometries.length === 1) return g.geometries[0];
  if (!g.geometries.every((p) => p.type === 'Polygon')) return g;
  return { type: 'MultiPolygon', coordinates: g.geometries.map((p) => (p.type === 'Polygon' ? p.coordinates : [])) };
}

/**
 * What a MultiGeometry joinedPolygons could not make a plot of holds (togeojson reads it as a
 * GeometryCollection, a type no plot file has): said in the KML's own words.
 */
function mixedMultiGeometry(g: unknown, rings: number): string | undefined {
  const collection = g as { type?: unknown; geometries?: Array<{ type?: unknown }> } | null;
  if (collection?.type !== 'GeometryCollection' || !Array.isArray(collection.geometries)) return undefined;
  const counts = new Map<string, number>();
  // `rings` of its LineStrings are LinearRings in the file; which ones does not matter to a count.
  let ringsLeft = rings;
  for (const part of collection.geometries) {
    const word = part.type === 'LineString' ? (ringsLeft-- > 0 ? 'LinearRing' : 'line') : part.type === 'GeometryCollection' ? 'MultiGeometry' : String(part.type).toLowerCase();
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const phrase = (word: string) => (counts.get(word) === 1 ? `a ${word}` : `${counts.get(word)} ${word}s`);
  const others = [...counts.keys()].filter((w) => w !== 'polygon').map(phrase).join(' and ');
  const held = counts.has('polygon') ? `mixes ${others} with ${phrase('polygon')}` : `holds ${others}`;
  const ring = counts.has('LinearRing') ? "; a polygon's ring goes in <Polygon><outerBoundaryIs>" : '';
  return `its MultiGeometry ${held}: a plot is one Point, or polygons only (a Polygon or MultiPolygon)${ring}`;
}

async function fromGpx(text: string, name: string, size: number): Promise<GeoJsonFile> {
  const doc = xmlDocument(text, name, 'GPX');
  if (!('nodeType' in doc)) return doc;
  const { gpx } = await import('@tmcw/togeojson');
  const all = gpx(doc).features;
  // A GPX plot is a waypoint; tracks and routes are the paths walked, not plots.
  const waypoints = all.filter((f) => f.geometry?.type === 'Point');
  // A waypoint's <desc> is what the other formats call its description.
  for (const w of waypoints) {
    if (w.properties && w.properties.description === undefined && typeof w.properties.desc === 'string') w.properties.description = w.properties.desc;
  }
  const file = fromGeoJsonValue({ type: 'FeatureCollection', features: waypoints }, name, size);
  const paths = all.length - waypoints.length;
  if (paths > 0) file.skipped = `${paths} track${paths === 1 ? '' : 's'} or route${paths === 1 ? '' : 's'} not read: only waypoints are plots`;
  return file;
}

/** A KMZ (zipped KML) or a zipped Shapefile, told apart by what the archive holds. */
async function fromZip(bytes: Buffer, name: string): Promise<GeoJsonFile> {
  const { unzipSync } = await import('fflate');
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => !f.name.startsWith('__MACOSX/') });
  } catch (err) {
    return { name, size: bytes.length, features: [], problem: `not a plot file: not a readable ZIP archive (${(err as Error).message})` };
  }
  const crcs = recordedChecksums(bytes);
  const damaged = crcs && mismatchedFile(entries, crcs);
  if (damaged !== undefined) return { name, size: bytes.length, features: [], problem: `the archive is ${damagedText(damaged)}` };
  const names = Object.keys(entries);
  const kmlName = names.find((n) => /(^|\/)doc\.kml$/i.test(n)) ?? names.find((n) => /\.kml$/i.test(n));
  const shps = names.filter((n) => /\.shp$/i.test(n));
  // A plot left out without a word is a plot the registry never sees: a plot file of the archive
  // that is not read (what a KMZ's main KML neither is nor links to, a Shapefile beside a KML, a
  // GPX or GeoJSON file in either) is refused, not skipped.
  const unreadOf = (read: (n: string) => boolean) => names.filter((n) => isPlotEntry(n, entries[n]!) && !read(n));
  const refused = (unread: string[], main: string): GeoJsonFile => ({
    name,
    size: bytes.length,
    features: [],
    problem: `the archive holds plot files sct would not read: ${unread.join(', ')} (a ZIP's plots are ${main}): give each file on its own`,
  });
  if (kmlName) {
    const read = new Set<string>();
    const file = await fromKmz(entries, kmlName, name, bytes.length, read);
    const unread = unreadOf((n) => read.has(n));
    if (file.problem || unread.length === 0) return file;
    const archive = refused(unread, `its main KML, ${kmlName}, and the KML files it links to; or its Shapefiles`);
    // A link that names no entry is most often why a file is not read: the refusal says it too.
    return file.skipped ? { ...archive, problem: `${archive.problem}; ${file.skipped}` } : archive;
  }
  const unread = unreadOf((n) => /\.shp$/i.test(n));
  if (shps.length > 0 && unread.length > 0) return refused(unread, 'its Shapefiles; or a KML and the KML files it links to');
  if (shps.length === 0) {
    return { name, size: bytes.length, features: [], problem: 'not a plot file: the ZIP archive holds neither a .kml (KMZ) nor a .shp (Shapefile)' };
  }
  const features: Array<Feature<Geometry | null>> = [];
  const structure: Array<string[] | undefined> = [];
  // One by one, not push(...layer): a layer of 130,000 points is more arguments than a call takes.
  for (const shp of shps) {
    for (const read of await shapefileLayer(entries, shp, name)) {
      features.push(read.feature);
      structure.push(read.structure);
    }
  }
  const file = fromGeoJsonValue({ type: 'FeatureCollection', features }, name, bytes.length);
  file.features.forEach((feature, i) => {
    if (structure[i]) feature.structure = [...(feature.structure ?? []), ...structure[i]];
  });
  // Without its .dbf a layer has shapes and no attributes: every name, country and area gone.
  const bare = shps.filter((shp) => !Object.keys(entries).some((n) => n.toLowerCase() === shp.slice(0, -4).toLowerCase() + '.dbf'));
  if (bare.length > 0) file.skipped = `${bare.join(', ')} has no .dbf beside it in the archive: its plots are read without their attributes (names, country, area)`;
  return file;
}

/**
 * Whether an entry of a ZIP is a plot file: a .kml, .shp, .gpx or .geojson; a .json only when it
 * holds GeoJSON (a survey's metadata.json beside its Shapefile is none).
 */
function isPlotEntry(name: string, bytes: Uint8Array): boolean {
  if (/\.(kml|shp|gpx|geojson)$/i.test(name)) return true;
  if (!/\.json$/i.test(name)) return false;
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8');
  return /^\uFEFF?\s*\{[\s\S]*"type"\s*:\s*"(FeatureCollection|Feature|Point|Polygon|MultiPolygon|MultiPoint|LineString|MultiLineString|GeometryCollection)"/.test(head);
}

/**
 * A KMZ's plots: those of its main KML, and those of the KML files inside the archive it links to.
 * GDAL's LIBKML driver (and QGIS) write `doc.kml` as a NetworkLink to each layer's own file
 * (`layers/plots.kml`); a link to anything outside the archive is not followed.
 */
async function fromKmz(entries: Record<string, Uint8Array>, main: string, name: string, size: number, read: Set<string>): Promise<GeoJsonFile> {
  const text = (entry: string) => xmlText(entries[entry]!, name, 'KML');
  read.add(main);
  const mainText = await text(main);
  if (typeof mainText !== 'string') return { ...mainText, problem: `${main}: ${mainText.problem}` };
  const doc = xmlDocument(mainText, name, 'KML');
  if (!('nodeType' in doc)) return doc;
  // The archive's entry a link of `from` names, relative to from's own directory; undefined for a URL or none.
  const entryOf = (from: string, { href }: NetworkLink) => {
    if (!href || /^[a-z][a-z0-9+.-]*:/i.test(href)) return undefined;
    // An href is a URL: the entry `layers/My Plots.kml` is linked as `layers/My%20Plots.kml`, and
    // a #fragment or ?query is no part of the file's name; one of the fragment alone is the file itself.
    const path = href.replace(/[?#].*$/s, '');
    if (path === '') return from;
    let decoded = path;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // A % not followed by two hex digits: the name as written.
    }
    return posix.normalize(from.slice(0, from.lastIndexOf('/') + 1) + decoded);
  };
  const followed = (link: NetworkLink) => {
    const entry = entryOf(main, link);
    return entry !== undefined && entry !== main && Object.hasOwn(entries, entry) && /\.kml$/i.test(entry);
  };
  const missing = (from: string) => (link: NetworkLink) => {
    const entry = entryOf(from, link);
    return entry !== undefined && !Object.hasOwn(entries, entry);
  };
  const file = await kmlPlots(doc, name, size, true);
  if (file.problem) return file;
  const links = networkLinks(doc);
  const linked = new Set(links.filter(followed).map((l) => entryOf(main, l)!));
  // A link to a file that is read (a layer's back to doc.kml or to a sibling layer, doc.kml's to
  // itself) leaves no plot out; one to any other is not followed (one level, as GDAL writes).
  const isRead = (entry: string | undefined) => entry === main || (entry !== undefined && linked.has(entry));
  const unreadOf = (from: string, of: NetworkLink[]) => of.filter((l) => !isRead(entryOf(from, l)));
  const skipped: string[] = [];
  for (const entry of linked) {
    read.add(entry);
    const partText = await text(entry);
    const partDoc = typeof partText === 'string' ? xmlDocument(partText, name, 'KML') : partText;
    if (!('nodeType' in partDoc)) return { ...file, features: [], problem: `${entry}: ${partDoc.problem}` };
    const part = await kmlPlots(partDoc, name, size, true);
    if (part.problem) return { ...file, features: [], problem: `${entry}: ${part.problem}` };
    // Numbered across the archive, as one file: each layer's own numbers start again at 1.
    for (const feature of part.features) file.features.push({ ...feature, index: file.features.length + 1 });
    if (part.structure) file.structure = [...(file.structure ?? []), ...part.structure];
    const partUnread = unreadLinks(unreadOf(entry, networkLinks(partDoc)), part.features.length, missing(entry));
    if (partUnread) skipped.push(`${entry}: ${partUnread}`);
  }
  const unread = unreadLinks(unreadOf(main, links), file.features.length, missing(main));
  if (unread) skipped.unshift(unread);
  if (skipped.length > 0) file.skipped = skipped.join('; ');
  return file;
}

/**
 * DBF field names have at most 10 characters, so the usual plot properties arrive cut; they are
 * read under their full names (unless the full name is there too).
 */
const DBF_FULL_NAMES: Readonly<Record<string, string>> = {
  Production: 'ProductionPlace',
  ProducerCo: 'ProducerCountry',
  ProducerNa: 'ProducerName',
  COUNTRY_CO: 'COUNTRY_CODE',
  // sct's own export (`origins list -o geojson`) made a Shapefile.
  country_co: 'country_code',
  PRODUCTION: 'PRODUCTION_PLACE',
  EXTERNAL_I: 'EXTERNAL_ID',
  DESCRIPTIO: 'DESCRIPTION',
  external_i: 'external_id',
  descriptio: 'description',
};

/** A record of a Shapefile layer as a feature, with what the file holds that the feature cannot (RawFeature.structure). */
interface ShapefileRecord {
  feature: Feature<Geometry | null>;
  structure?: string[];
}

async function shapefileLayer(entries: Record<string, Uint8Array>, shp: string, name: string): Promise<ShapefileRecord[]> {
  const base = shp.slice(0, -4);
  const siblingName = (ext: string) => Object.keys(entries).find((n) => n.toLowerCase() === `${base}.${ext}`.toLowerCase());
  const sibling = (ext: string) => {
    const key = siblingName(ext);
    return key === undefined ? undefined : entries[key];
  };
  const prjBytes = sibling('prj');
  const prj = prjBytes && Buffer.from(prjBytes).toString('utf8').trim();
  // The layer's positions as its coordinate system gives them, and the function that takes one
  // to WGS 84 (undefined: they are WGS 84 already).
  let toWgs84: ((position: number[]) => number[]) | undefined;
  const cannotRead = () =>
    new UsageError(`${name}: ${base}.prj names a coordinate system sct cannot read, so the plots cannot be placed: export the layer in WGS 84 (EPSG:4326)`);
  if (prj) {
    const { default: proj4 } = await import('proj4');
    let projection: InstanceType<typeof proj4.Proj>;
    const wkt = withDatumShift(prj);
    try {
      projection = new proj4.Proj(wkt);
    } catch {
      throw cannotRead();
    }
    const datum = unshiftedDatum(wkt, projection);
    if (datum) {
      throw new UsageError(
        `${name}: ${base}.prj is on the datum ${datum}, which sct cannot shift to WGS 84 (the file gives no shift parameters): read as WGS 84 the plots would land tens to hundreds of metres off`,
        {},
        'export the layer in WGS 84 (EPSG:4326) from the GIS (QGIS: Export > Save Features As, CRS EPSG:4326; GDAL: ogr2ogr -t_srs EPSG:4326)',
      );
    }
    withTrueScale(projection);
    let converter: { forward(position: number[]): number[] };
    try {
      converter = proj4(projection as never, 'WGS84') as unknown as typeof converter;
    } catch {
      throw cannotRead();
    }
    toWgs84 = (position) => {
      // proj4 leaves what it cannot project as NaN or Infinity, or throws: either way the .prj is
      // the trouble, not the geometry.
      let out: number[];
      try {
        out = converter.forward(position.slice(0, 2));
      } catch {
        throw cannotRead();
      }
      if (!Number.isFinite(out[0]) || !Number.isFinite(out[1])) throw cannotRead();
      return [out[0]!, out[1]!, ...position.slice(2)];
    };
  }
  // shpjs reads every record by the layer's shape type less 20 (a MultiPatch, 31, as a PointZ:
  // its box's corner, with the largest X as altitude), whatever the record's own type.
  const type = entries[shp]!.length >= 36 ? Buffer.from(entries[shp]!).readInt32LE(32) : undefined;
  const advice = type === undefined ? undefined : UNREAD_SHAPES[type];
  if (advice) throw new UsageError(`${name}: ${shp}: ${SHAPE_TYPES[type!]} shapes are not read: ${advice}`);
  const { parseShp, parseDbf } = await import('shpjs');
  let geometries: Array<Geometry | null>;
  let written: ShpRecords;
  let records: Array<Record<string, unknown>>;
  try {
    // Reprojected here, not by shpjs: it reads the .prj with proj4 as it stands, and when proj4
    // fails on it, silently not at all (metres read as degrees).
    const shx = siblingName('shx');
    written = shpRecordRings(entries[shp]!, shp, shx === undefined ? undefined : { name: shx, bytes: entries[shx]! });
    // The records can be read without the index: so sct reads a layer zipped without its .shx, and
    // says so where that reading gets through (an old record's tail a GIS left stops it).
    if (written.index) {
      const bare = readsWithoutIndex(entries[shp]!, shp);
      throw new UsageError(`${name}: ${written.index}`, {}, bare ? `export the layer again, or zip it without ${shx}: sct then reads the records of ${shp} one after another` : 'export the layer again');
    }
    // shpjs stops without a word at a record the file ends inside: a plot fewer.
    if (written.cut) throw new UsageError(`${name}: ${shp} ${written.cut}: the file is cut short`, {}, 'export the layer again, or send the files as the GIS wrote them');
    if (written.noRecord) throw new UsageError(`${name}: ${shp} ${written.noRecord}`, {}, 'export the layer again, and send its .shx with it: the records are then read where it places them');
    // The records GDAL reads, in its order: shpjs would read 8 zero bytes of padding as a record
    // without a shape, and the stale bytes of a record a GIS moved as the record.
    geometries = parseShp(written.bytes);
    const dbf = sibling('dbf');
    if (dbf) {
      const encoding = cpgEncoding(sibling('cpg')) ?? dbfEncoding(dbf);
      const reader = await textReader(encoding);
      records = reader ? withTextReader(reader, () => parseDbf(dbf, Buffer.from(encoding))) : parseDbf(dbf, Buffer.from(encoding));
    } else {
      records = [];
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${name}: ${shp} is not a readable Shapefile (${(err as Error).message})`);
  }
  // shpjs gives a record the .dbf lacks no attributes: plots without their names, country and id.
  const dbf = sibling('dbf');
  if (dbf) {
    const dbfName = siblingName('dbf')!;
    const cut = dbfCut(dbf);
    if (cut) throw new UsageError(`${name}: ${dbfName} ${cut}: the file is cut short`, {}, 'export the layer again, or send the files as the GIS wrote them');
    if (records.length !== geometries.length) {
      throw new UsageError(
        `${name}: ${written.counted} ${written.counted === shp ? 'holds' : 'lists'} ${geometries.length} shape${geometries.length === 1 ? '' : 's'} and ${dbfName} ${records.length} record${records.length === 1 ? '' : 's'}: which attributes are whose cannot be told`,
        {},
        'send the .shp, .shx and .dbf of one export of the layer',
      );
    }
  }
  const features = geometries.map((geometry, i): ShapefileRecord => {
    const feature: Feature<Geometry | null> = { type: 'Feature', geometry: geometry && plainGeometry(geometry, toWgs84), properties: fullNames(records[i] ?? {}) };
    // shpjs places each counter-clockwise ring (a hole) in the outer ring around it, and leaves
    // out one that lies in none: the plot would reach the registry without it.
    const lost = (written.rings[i] ?? 0) - ringCount(geometry);
    if (lost <= 0) return { feature };
    const holes = lost === 1 ? '1 is a hole (counter-clockwise) that lies' : `${lost} are holes (counter-clockwise) that lie`;
    return { feature, structure: [`${shp} record ${i + 1} holds ${written.rings[i]} rings, of which ${holes} inside no outer ring: a hole must be inside the polygon it cuts`] };
  });
  // A record whose flag is "*" was deleted in the GIS, and GDAL and QGIS read it as gone;
  // shpjs reads it as any other. Its shape goes with it.
  return dbf ? features.filter((_f, i) => !dbfRecordDeleted(dbf, i)) : features;
}

function ringCount(g: Geometry | null): number {
  if (g?.type === 'Polygon') return g.coordinates.length;
  if (g?.type === 'MultiPolygon') return g.coordinates.reduce((n, rings) => n + rings.length, 0);
  return 0;
}

/** The Shapefile's shape types by their code. */
const SHAPE_TYPES: Readonly<Record<number, string>> = {
  0: 'Null',
  1: 'Point',
  3: 'PolyLine',
  5: 'Polygon',
  8: 'MultiPoint',
  11: 'PointZ',
  13: 'PolyLineZ',
  15: 'PolygonZ',
  18: 'MultiPointZ',
  21: 'PointM',
  23: 'PolyLineM',
  25: 'PolygonM',
  28: 'MultiPointM',
  31: 'MultiPatch',
};

/**
 * Layer types shpjs reads wrong, and what to export instead: a MultiPatch as points, a
 * MultiPointZ of one point with its altitude from the wrong bytes (or past the record's end), a
 * Null layer not at all. The others shpjs reads right (a multipoint of one point as that point);
 * a line or a multipoint of several is then that feature's error.
 */
const UNREAD_SHAPES: Readonly<Record<number, string>> = {
  0: 'export the layer with its geometry',
  18: 'export the layer as points',
  31: 'export the layer as polygons',
};

interface ShpRecords {
  /** The rings of each record as written (its parts; undefined for a record that is no polygon). */
  rings: Array<number | undefined>;
  /** Where the file ends short of its records, if it does. */
  cut?: string;
  /** Where, read one after another, the records reach bytes that are none (the file not cut short). */
  noRecord?: string;
  /** Why the .shx is no index of the .shp's records, if it is not. */
  index?: string;
  /** The header and the records read, one after another: what shpjs is handed. */
  bytes: Uint8Array;
  /** The file that says how many shapes there are (the .shx when there is one). */
  counted: string;
}

/**
 * The records of a .shp as GDAL reads them, and what they hold that shpjs's polygons may not (it
 * leaves out a ring it cannot place). With a .shx, each record is read where the .shx says: a GIS
 * that edits a layer in place writes a grown record at the file's end and points the .shx at it,
 * the old bytes left where they were. Without one, records follow one another from byte 100:
 * zeros after the last are padding a copy appended, and bytes past the length the header gives
 * that make no whole record are no record (a copy's tail, an end-of-file mark); a record the file
 * ends inside, within that length, is a file cut short.
 */
function shpRecordRings(shp: Uint8Array, shpName: string, shx?: { name: string; bytes: Uint8Array }): ShpRecords {
  const view = new DataView(shp.buffer, shp.byteOffset, shp.byteLength);
  const rings: Array<number | undefined> = [];
  // The file's length in 16-bit words at 24, big-endian; each record its number and content
  // length so, then the content.
  if (shp.length < 100) return { rings, cut: `ends inside its header (${shp.length} bytes of 100)`, bytes: shp, counted: shpName };
  const declared = view.getInt32(24) * 2;
  const layerType = view.getInt32(32, true);
  if (!SHAPE_TYPES[layerType]) throw new Error(`its header gives shape type ${layerType}, which is none of the Shapefile's`);
  const shape = (type: number) => (SHAPE_TYPES[type] ? `a ${SHAPE_TYPES[type]} shape` : `of shape type ${type}`);
  // The .shx: a 100-byte header, then one 8-byte entry a record, its offset and content length in
  // 16-bit words. GDAL opens no layer whose .shx is none ("unreadable, or corrupt"): read one
  // after another, its records would be sent as though nothing were wrong.
  const shxView = shx && Buffer.from(shx.bytes.buffer, shx.bytes.byteOffset, shx.bytes.byteLength);
  if (shxView) {
    const noIndex = (why: string) => ({ rings, index: `${shx!.name} is no Shapefile index: ${why}`, bytes: shp, counted: shx!.name });
    if (shxView.length < 100) return noIndex(`it holds ${shxView.length} bytes, fewer than its 100-byte header`);
    if (shxView.readInt32BE(0) !== 9994) return noIndex(`its file code is ${shxView.readInt32BE(0)}, not 9994`);
    const indexLength = shxView.readInt32BE(24) * 2;
    if (indexLength < 100) return noIndex(`its header gives a length of ${indexLength} bytes, less than the header's own 100`);
    if (indexLength > shxView.length) {
      return { rings, index: `${shx!.name} ends before the entries its header gives (${indexLength} bytes, the file has ${shxView.length}): the file is cut short`, bytes: shp, counted: shx!.name };
    }
  }
  // Bytes past the last whole entry are no entry, as GDAL reads them.
  const listed = shxView && Math.floor((shxView.readInt32BE(24) * 2 - 100) / 8);
  const entryAt = (i: number) => shxView!.readInt32BE(100 + 8 * i) * 2;
  const entryLength = (i: number) => shxView!.readInt32BE(104 + 8 * i) * 2;
  const zeros = (from: number) => shp.subarray(from).every((b) => b === 0);
  // GDAL reads a record where the .shx says and never looks at its number; a writer that numbers
  // records otherwise than 1, 2, 3… (from 0, all 1) is read so. Where most records carry their
  // own number, one that carries another's is an entry placed on the wrong record.
  let numbered: boolean | undefined;
  const numberedInOrder = () => {
    let own = 0;
    for (let i = 0; i < listed!; i++) {
      const x = entryAt(i);
      if (x >= 100 && x + 8 <= shp.length && view.getInt32(x) === i + 1) own++;
    }
    return own * 2 > listed!;
  };
  // Where the records of the .shp start read one after another from byte 100, and where the last ends.
  let bounds: number[] | undefined;
  const walk = () => {
    const found = [100];
    for (let start = 100; start + 8 <= shp.length; ) {
      const end = start + 8 + view.getInt32(start + 4) * 2;
      if (end < start + 8 || end > shp.length) break;
      found.push((start = end));
    }
    return found;
  };
  // Where the .shx has a record start or end, and the header's and the file's ends.
  let vouched: Set<number> | undefined;
  const vouch = () => {
    const at = new Set([100, shp.length]);
    for (let i = 0; i < listed!; i++) at.add(entryAt(i)).add(entryAt(i) + 8 + entryLength(i));
    return at;
  };
  // The record so read that holds byte x past its start. Read so, bytes that are no record (the tail
  // of a record a GIS rewrote shorter in place) are taken for a record header, and what follows is
  // misread: a record is named only where the .shx has a record start or end at both its ends.
  const around = (x: number) => {
    bounds ??= walk();
    let low = 0;
    let high = bounds.length - 1;
    if (x <= bounds[0]! || x >= bounds[high]!) return undefined;
    while (high - low > 1) {
      const mid = (low + high) >> 1;
      if (bounds[mid]! <= x) low = mid;
      else high = mid;
    }
    const start = bounds[low]!;
    const end = bounds[high]!;
    vouched ??= vouch();
    if (x === start || !vouched.has(start) || !vouched.has(end)) return undefined;
    return { number: view.getInt32(start), start, end };
  };
  const misplaced = (x: number, where: string) => ({
    rings,
    index: `${shx!.name} places record ${rings.length + 1} at byte ${x}, ${where}`,
    bytes: shp,
    counted: shx!.name,
  });
  const inside = (x: number) => {
    const record = around(x);
    // A record's number names it only in a layer numbered 1, 2, 3…
    const which = record && ((numbered ??= numberedInOrder()) ? `record ${record.number} of ${shpName}` : `a record of ${shpName}`);
    return record && misplaced(x, `inside ${which} (bytes ${record.start} to ${record.end - 1}), where no record starts`);
  };
  const taken: Uint8Array[] = [shp.subarray(0, 100)];
  let at = 100;
  for (;;) {
    if (listed !== undefined) {
      if (rings.length === listed) break;
      at = entryAt(rings.length);
      if (at < 100) return misplaced(at, `inside the 100-byte header of ${shpName}, where no record starts`);
      if (at + 8 > shp.length) {
        return { rings, cut: `ends before record ${rings.length + 1}, which ${shx!.name} places at byte ${at} (the file has ${shp.length})`, bytes: shp, counted: shx!.name };
      }
    } else if (at >= shp.length || (at + 8 > shp.length ? zeros(at) : view.getInt32(at) === 0 && view.getInt32(at + 4) === 0)) {
      // A record header of zeros (records are numbered from 1) is padding, as is the file's end.
      break;
    }
    const content = at + 8;
    const length = content <= shp.length ? view.getInt32(at + 4) * 2 : 0;
    const past = content > shp.length || length < 0 || content + length > shp.length;
    // A record has the length its .shx entry gives (or 8 bytes less: some writers count the record
    // header in the entry); bytes read as a header that give another are no record the .shx places.
    const indexed = listed === undefined ? length : entryLength(rings.length);
    const unlike = listed !== undefined && (length < 0 || (length !== indexed && length + 8 !== indexed));
    if (past) {
      // Past the length the header gives, what makes no whole record is no record.
      if (listed === undefined && at >= declared && declared >= 100) break;
      if (unlike) return inside(at) ?? misplaced(at, `where no record of ${shpName} starts: the record header read there gives a length of ${length} bytes, and the file has ${shp.length}`);
      // Read one after another, the file is cut short only where its header says it holds more;
      // else these bytes are none (the tail of a record a GIS rewrote shorter in place).
      if (listed === undefined && (length < 0 || declared <= shp.length)) {
        const read = content > shp.length ? `${shp.length - at} bytes are left there, fewer than a record header's 8` : `the record header read there gives a length of ${length} bytes, and the file has ${shp.length}`;
        return {
          rings,
          noRecord: `holds no record at byte ${at}, where record ${rings.length + 1} would start, its records read one after another: ${read}`,
          bytes: shp,
          counted: shpName,
        };
      }
      const end = content + length;
      const cut = declared > shp.length ? `its header gives ${declared} bytes` : `bytes ${at} to ${end - 1} by its record header and ${shx!.name}`;
      return { rings, cut: `ends inside record ${rings.length + 1} (${cut}, the file has ${shp.length})`, bytes: shp, counted: shpName };
    }
    if (listed !== undefined && view.getInt32(at) !== rings.length + 1 && (numbered ??= numberedInOrder())) {
      return inside(at) ?? misplaced(at, `where the record header of ${shpName} gives record number ${view.getInt32(at)}`);
    }
    if (unlike) return inside(at) ?? misplaced(at, `where the record header of ${shpName} gives a length of ${length} bytes, and ${shx!.name} ${indexed}`);
    taken.push(shp.subarray(at, content + length));
    at = content + length;
    // Polygon, PolygonZ, PolygonM: the number of parts at 36, of points at 40, the parts' starts at 44.
    const type = length >= 4 ? view.getInt32(content, true) : 0;
    if (type !== 0 && type !== layerType) {
      throw new Error(`record ${rings.length + 1} is ${shape(type)} in a layer of ${SHAPE_TYPES[layerType]} shapes: a layer holds shapes of one type`);
    }
    if (type !== 5 && type !== 15 && type !== 25) {
      rings.push(undefined);
      continue;
    }
    const damaged = (why: string) => new Error(`record ${rings.length + 1} is damaged: ${why}`);
    // Read on, counts the record cannot hold would reach past its end (a DataView's error, or a
    // negative part count read by shpjs as some other shape).
    if (length < 44) throw damaged(`it holds ${length} bytes, fewer than the 44 of a polygon's counts`);
    const parts = view.getInt32(content + 36, true);
    const points = view.getInt32(content + 40, true);
    if (parts < 0) throw damaged(`it gives ${parts} parts`);
    if (points < 0) throw damaged(`it gives ${points} points`);
    const needs = 44 + 4 * parts + 16 * points;
    if (needs > length) throw damaged(`its ${parts} part${parts === 1 ? '' : 's'} and ${points} point${points === 1 ? '' : 's'} take ${needs} bytes, and the record holds ${length}`);
    // shpjs reads the first ring from point 0 whatever the record gives, GDAL from where it says:
    // either way not the ring the GIS wrote.
    const first = parts > 0 ? view.getInt32(content + 44, true) : 0;
    if (first > 0 && first < points) throw damaged(`its part 1 starts at point ${first}, not at its first point (0)`);
    for (let p = 0; p < parts; p++) {
      const start = view.getInt32(content + 44 + 4 * p, true);
      const end = p + 1 < parts ? view.getInt32(content + 48 + 4 * p, true) : points;
      // GDAL refuses such a record ("Corrupted .shp file"); shpjs skips an empty part and then
      // reads a PolygonZ's altitudes 4 bytes early, and parts out of order from anywhere.
      if (end === start) throw damaged(`its part ${p + 1} holds no points`);
      if (start < 0 || end < start || end > points) throw damaged(`its part ${p + 1} runs from point ${start} to ${end} of ${points}`);
    }
    rings.push(parts);
  }
  // Without a .shx, a header that gives more than the file holds is all that says records are missing.
  if (listed === undefined && declared > shp.length) {
    return { rings, cut: `ends after record ${rings.length} (its header gives ${declared} bytes, the file has ${shp.length})`, bytes: shp, counted: shpName };
  }
  // shpjs reads records one after another to the length its header gives: that of what was read.
  const bytes = Buffer.concat(taken);
  bytes.writeInt32BE(bytes.length / 2, 24);
  return { rings, bytes, counted: listed === undefined ? shpName : shx!.name };
}

/** Whether the records of a .shp can be read one after another, as without its .shx. */
function readsWithoutIndex(shp: Uint8Array, shpName: string): boolean {
  try {
    const read = shpRecordRings(shp, shpName);
    return !read.cut && !read.noRecord;
  } catch {
    return false;
  }
}

/** Where a .dbf ends inside the records its header counts, if it does. */
function dbfCut(dbf: Uint8Array): string | undefined {
  const view = Buffer.from(dbf.buffer, dbf.byteOffset, dbf.byteLength);
  // One shorter than its header fails in shpjs's reading first.
  if (view.length < 12) return undefined;
  const records = view.readUInt32LE(4);
  const headerLength = view.readUInt16LE(8);
  const recordLength = view.readUInt16LE(10);
  if (headerLength + records * recordLength <= view.length) return undefined;
  const whole = Math.max(0, Math.floor((view.length - headerLength) / (recordLength || 1)));
  return `ends inside record ${whole + 1} of the ${records} its header counts`;
}

function dbfRecordDeleted(dbf: Uint8Array, index: number): boolean {
  const view = Buffer.from(dbf.buffer, dbf.byteOffset, dbf.byteLength);
  if (view.length < 12) return false;
  const at = view.readUInt16LE(8) + index * view.readUInt16LE(10);
  return at < view.length && view[at] === 0x2a;
}

/**
 * The text encoding of a DBF without a .cpg, from the code page byte of its header (the
 * "language driver id"; GDAL writes 87, Latin-1, and no .cpg); one it does not name, or one
 * Node cannot decode, is read as UTF-8 when the file is valid UTF-8, else as Windows-1252.
 */
const LDID_ENCODINGS: Readonly<Record<number, string>> = {
  0x03: 'windows-1252',
  0x57: 'windows-1252',
  0x58: 'windows-1252',
  0x59: 'windows-1252',
  0x26: 'ibm866',
  0x65: 'ibm866',
  0x13: 'shift_jis',
  0x7b: 'shift_jis',
  0x4d: 'gbk',
  0x7a: 'gbk',
  0x4e: 'euc-kr',
  0x79: 'euc-kr',
  0x4f: 'big5',
  0x78: 'big5',
  0x7c: 'windows-874',
  0x7d: 'windows-1255',
  0x7e: 'windows-1256',
  0xc8: 'windows-1250',
  0xc9: 'windows-1251',
  0xca: 'windows-1254',
  0xcb: 'windows-1253',
};

/**
 * The encoding a .cpg names, as TextDecoder knows it: ESRI writes code pages as numbers (`88591`
 * for ISO 8859-1, `1252`, `65001` for UTF-8), GDAL as names (`ISO-8859-1`, `UTF-8`). Undefined
 * for one neither (`System`, the machine's own): the DBF's code page byte is asked then.
 */
function cpgEncoding(cpg: Uint8Array | undefined): string | undefined {
  if (!cpg) return undefined;
  const text = Buffer.from(cpg).toString('latin1').trim();
  const known = (label: string) => {
    try {
      return new TextDecoder(label).encoding;
    } catch {
      return undefined;
    }
  };
  const iso = /^(?:ISO[-_ ]?)?8859[-_ ]?(\d{1,2})$/i.exec(text) ?? /^2859(\d)$/.exec(text);
  if (iso) return known(`iso-8859-${iso[1]}`);
  // A Windows code page by its number (`1251`, `CP936`, `ANSI 1251`, as ESRI, GDAL and QGIS write it).
  const page = /^(?:CP|ANSI[ _]?|WINDOWS-)?(\d{3,5})$/i.exec(text)?.[1];
  if (page) return CODE_PAGES[page] ?? known(`windows-${page}`);
  return known(text);
}

/** Code pages TextDecoder names otherwise than `windows-N`. */
const CODE_PAGES: Readonly<Record<string, string>> = {
  '65001': 'utf-8',
  '932': 'shift_jis',
  '936': 'gbk',
  '949': 'euc-kr',
  '950': 'big5',
  '874': 'windows-874',
  '866': 'ibm866',
  '20866': 'koi8-r',
  '21866': 'koi8-u',
};

function dbfEncoding(dbf: Uint8Array): string {
  const named = LDID_ENCODINGS[dbf[29] ?? 0];
  if (named) return named;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(dbf);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/**
 * Datums that are WGS 84 to within a metre or two, for which no shift is needed: an ESRI .prj
 * names its datum without the parameters of its shift to WGS 84 (GDAL writes none), and proj4
 * then shifts nothing. On any other datum (Accra, Abidjan 1987, Arc 1960, SAD69, European 1950,
 * GGRS87 — GRS 80 but 200 m apart) the positions would be off by up to hundreds of metres.
 */
const WGS84_ALIGNED_DATUMS = /^D_(WGS_1984|ETRS_1989|ETRF_\d+|ITRF_\d+|North_American_1983(_\w+)?|NAD_1983_\w+|SIRGAS(_2000|_\w+)?|MAGNA|GDA_?(1994|2020)|NZGD_2000|Hartebeesthoek_1994|Datum_Geodesi_Nasional_1995|GDM_2000|RGF_1993|JGD_(2000|2011)|Korea_2000|China_2000|IGS\w*)$/i;

/**
 * Shifts to WGS 84 that proj4's own table gets wrong, by the datum an ESRI .prj names: Belge 1972
 * with its rotations' signs turned (about 190 m off in Belgium), S-JTSK with three parameters
 * instead of seven (about 8 m). These are EPSG's (BD72 to WGS 84 (3), S-JTSK to WGS 84 (5)), in
 * the position-vector convention TOWGS84 takes, as PROJ gives them for EPSG:31370 and EPSG:5514.
 */
const DATUM_SHIFTS: Readonly<Record<string, string>> = {
  d_belge_1972: '-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747',
  d_s_jtsk: '570.8,85.7,462.8,4.998,1.587,5.261,3.56',
};

/** The .prj with the shift of its datum written in, when it names one of DATUM_SHIFTS and gives none. */
function withDatumShift(prj: string): string {
  if (/TOWGS84\s*\[/i.test(prj)) return prj;
  return prj.replace(/(DATUM\s*\[\s*"([^"]+)"\s*,\s*SPHEROID\s*\[[^\]]*\])/i, (whole, _all: string, datum: string) => {
    const shift = DATUM_SHIFTS[datum.toLowerCase()];
    return shift ? `${whole},TOWGS84[${shift}]` : whole;
  });
}

/**
 * ESRI's Mercator takes its true-scale latitude as Standard_Parallel_1 (SIRGAS 2000 / Brazil
 * Mercator: -2°), which proj4 reads as a first standard parallel and leaves out, so its scale
 * stayed that of the equator: positions were up to a kilometre off.
 */
function withTrueScale(projection: { projName?: string; lat1?: number; lat_ts?: number; init?: () => void }): void {
  const mercator = projection.projName !== undefined && /^(Mercator|Mercator_2SP|merc)$/i.test(projection.projName);
  if (!mercator || !projection.lat1 || projection.lat_ts || !projection.init) return;
  projection.lat_ts = projection.lat1;
  projection.init();
}

/** The datum of a .prj that proj4 would read without a shift it needs; undefined when none is needed. */
function unshiftedDatum(prj: string, projection: { datum?: { datum_type?: number } }): string | undefined {
  // proj4's datum types: 1 and 2 carry 3 or 7 shift parameters (TOWGS84, or a datum it knows),
  // 4 is WGS 84; 5 is a datum it knows nothing of.
  if (projection.datum?.datum_type !== 5) return undefined;
  const datum = /DATUM\s*\[\s*"([^"]+)"/i.exec(prj)?.[1];
  if (datum && WGS84_ALIGNED_DATUMS.test(datum)) return undefined;
  return datum ?? 'the one it names';
}

/**
 * The geometry as the origin's location: each position taken to WGS 84 by `toWgs84` when the
 * layer has a .prj, without the bbox shpjs adds (it is not the box of the positions), and rounded
 * to 9 decimals (0.1 mm), which drops the noise of reprojection (-2.489312000000011) and nothing a
 * survey measured.
 */
function plainGeometry(g: Geometry, toWgs84?: (position: number[]) => number[]): Geometry {
  const round = (p: number[]) => (toWgs84 ? toWgs84(p) : p).map((v) => Math.round(v * 1e9) / 1e9);
  const walk = (v: unknown): unknown => (Array.isArray(v) && typeof v[0] === 'number' ? round(v as number[]) : Array.isArray(v) ? v.map(walk) : v);
  if (g.type === 'GeometryCollection') return { type: g.type, geometries: g.geometries.map((x) => plainGeometry(x, toWgs84)) };
  return { type: g.type, coordinates: walk(g.coordinates) } as Geometry;
}

function fullNames(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    const full = DBF_FULL_NAMES[k];
    // A DBF has no way to leave a field out: an empty number is written as "****" or blanks
    // (GDAL, QGIS, ArcGIS), which shpjs reads as NaN. Such a field is absent, as GDAL reads it.
    if (typeof v === 'number' && Number.isNaN(v)) continue;
    out[full !== undefined && !(full in record) ? full : k] = typeof v === 'string' ? v.trim() : v;
  }
  return out;
}
