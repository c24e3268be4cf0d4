// Which property of a feature says what. Plot files come from many tools: the EU registry's own
// template (ProducerCountry, ProductionPlace, Area), shapefile exports (upper case) and sct's own
// `-o geojson` (the origin's field names); each field is looked up under all its usual names.
import type { RawFeature } from './geojson.js';

export const COUNTRY_PROPERTIES = ['country_code', 'ProducerCountry', 'COUNTRY_CODE'] as const;
export const NAME_PROPERTIES = ['name', 'ProductionPlace', 'PRODUCTION_PLACE'] as const;
export const AREA_PROPERTIES = ['area', 'AREA', 'Area'] as const;
export const EXTERNAL_ID_PROPERTIES = ['external_id', 'EXTERNAL_ID'] as const;
export const DESCRIPTION_PROPERTIES = ['description', 'DESCRIPTION'] as const;

/** The property names of the registry's GeoJSON file description (case-sensitive there). */
const REGISTRY_PROPERTIES = ['ProductionPlace', 'ProducerCountry', 'ProducerName', 'Area'] as const;
export const REGISTRY_AREA = 'Area';

const squeeze = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const REGISTRY_BY_SQUEEZED = new Map<string, string>(REGISTRY_PROPERTIES.map((n) => [squeeze(n), n]));
/** Property name → the registry's name it resembles: the features of a file share their few names. */
const resembled = new Map<string, string | undefined>();

/** The feature's properties that the registry would read under another spelling (`productionplace`, `Producer_Country`). */
export function misspelledProperties(f: RawFeature): Array<{ found: string; registry: string }> {
  const out: Array<{ found: string; registry: string }> = [];
  for (const found of Object.keys(f.properties)) {
    if (!resembled.has(found)) resembled.set(found, REGISTRY_BY_SQUEEZED.get(squeeze(found)));
    const registry = resembled.get(found);
    if (registry !== undefined && registry !== found && !(registry in f.properties)) out.push({ found, registry });
  }
  return out;
}

/**
 * The other spellings of sct's own fields, squeezed as above (a DBF's cut ones too): ExternalId,
 * External_ID, Description would be left unread without a word. A bare `id` is none of them:
 * ArcGIS gives every record an `Id` of 0.
 */
const SCT_FIELDS: ReadonlyArray<{ field: string; names: readonly string[]; squeezed: readonly string[] }> = [
  { field: 'an external_id', names: EXTERNAL_ID_PROPERTIES, squeezed: ['externalid', 'externali'] },
  { field: 'a description', names: DESCRIPTION_PROPERTIES, squeezed: ['description', 'descriptio'] },
];

/** The feature's properties that spell one of sct's own fields in a way it does not read, where no spelling it reads is there. */
export function unreadSpellings(f: RawFeature): Array<{ found: string; field: string; names: readonly string[] }> {
  const out: Array<{ found: string; field: string; names: readonly string[] }> = [];
  for (const { field, names, squeezed } of SCT_FIELDS) {
    if (names.some((n) => n in f.properties)) continue;
    for (const found of Object.keys(f.properties)) if (squeezed.includes(squeeze(found))) out.push({ found, field, names });
  }
  return out;
}

function firstText(props: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = props[n];
    if (givesText(v)) return typeof v === 'string' ? v.trim() : String(v);
  }
  return undefined;
}

/**
 * Two spellings of one field that give different values (`country_code` CI, `COUNTRY_CODE` GH):
 * firstText takes the first and the other would be dropped without a word, so neither is chosen.
 * Values are compared as sct reads them (trimmed, a number as its text; `same` folds what else
 * reads as one, a country code's case): the same value twice is one.
 */
/** How much of each value a disagreement shows: under what a row's message cuts (bulk/csv.ts asQuoted). */
const DISAGREEMENT_SHOWN = 50;

export function disagreement(props: Record<string, unknown>, names: readonly string[], same: (text: string) => string = (text) => text): string | undefined {
  let first: { name: string; text: string } | undefined;
  for (const name of names) {
    const v = props[name];
    if (!givesText(v)) continue;
    const text = typeof v === 'string' ? v.trim() : String(v);
    if (!first) first = { name, text };
    else if (same(text) !== same(first.text)) {
      const field = names[0]!;
      // Long values cut alike would read as the same: where they part is said.
      let at = 0;
      while (at < text.length && text[at] === first.text[at]) at++;
      const cut = (t: string) => (t.length > DISAGREEMENT_SHOWN ? `${t.slice(0, DISAGREEMENT_SHOWN)}…` : t);
      const where = at >= DISAGREEMENT_SHOWN ? ` (they differ from character ${at + 1})` : '';
      return `"${first.name}" is ${JSON.stringify(cut(first.text))} but "${name}" is ${JSON.stringify(cut(text))}${where}: sct reads either as the ${field} and would drop one; keep one of them, or give both the same value`;
    }
  }
  return undefined;
}

/** Where the feature's country properties disagree (a country code is read in any case). */
export function countryDisagreement(f: RawFeature): string | undefined {
  return disagreement(f.properties, COUNTRY_PROPERTIES, (code) => code.toUpperCase());
}

/** Whether a property's value is taken as text: a non-blank string, or a finite number. */
export function givesText(v: unknown): v is string | number {
  return (typeof v === 'string' && v.trim() !== '') || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Why the property firstText would take (of names, in order) is not taken as sent: a number past
 * 2^53, which JSON.parse has already rounded (an id read so is another id), or, where none is
 * taken, a value that is no text (an object, an array, a boolean) — said, not called missing.
 */
export function valueProblem(props: Record<string, unknown>, names: readonly string[]): string | undefined {
  let other: string | undefined;
  for (const n of names) {
    const v = props[n];
    if (givesText(v)) return typeof v === 'number' ? inexact(v) : undefined;
    if (v !== null && v !== undefined && typeof v !== 'string') other ??= `expected text or a number, not ${Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`}`;
  }
  return other;
}

/** The feature's own id, when it is a number read rounded. */
export function idProblem(f: RawFeature): string | undefined {
  const why = typeof f.id === 'number' ? inexact(f.id) : undefined;
  return why && `the feature's id is ${why}`;
}

function inexact(n: number): string | undefined {
  return Number.isInteger(n) && !Number.isSafeInteger(n) ? `a number past what one holds exactly (read as ${String(n)}): write it as text, in quotes` : undefined;
}

/** The feature's country code (upper-cased), else the one given for every feature. */
export function countryOf(f: RawFeature, fallback?: string): string | undefined {
  return firstText(f.properties, COUNTRY_PROPERTIES)?.toUpperCase() ?? fallback?.toUpperCase();
}

/** The plot's name; `property` (--name-property) replaces the usual names. */
export function nameOf(f: RawFeature, property?: string): string | undefined {
  return firstText(f.properties, property ? [property] : NAME_PROPERTIES);
}

/** The stated area in hectares, when a property gives one as a number ("12", "12.5" and "12,5" too). */
export function statedHectares(f: RawFeature): number | undefined {
  // The registry reads `Area`: where a feature has it, the other spellings say nothing.
  const names = Object.hasOwn(f.properties, REGISTRY_AREA) ? [REGISTRY_AREA] : AREA_PROPERTIES;
  for (const n of names) {
    const v = f.properties[n];
    const num = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+([.,]\d+)?\s*$/.test(v) ? Number(v.trim().replace(',', '.')) : NaN;
    if (Number.isFinite(num)) return num;
  }
  return undefined;
}

/**
 * The identifier an origin gets as its external_id: the `external_id` (or `EXTERNAL_ID`) property
 * first, since sct's own export puts the service's id in the properties and leaves the Feature's
 * id alone; else the Feature's `id`.
 */
export function externalIdOf(f: RawFeature): string | undefined {
  return firstText(f.properties, EXTERNAL_ID_PROPERTIES) ?? (f.id !== undefined && String(f.id).trim() !== '' ? String(f.id).trim() : undefined);
}

const LABEL_MAX = 60;

/** An id or name in a label, not the value: thousands of characters are cut. */
export function labelText(text: string): string {
  return text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX)}…` : text;
}

/** How messages name a feature: its index, and its id or name when it has one. */
export function featureLabel(f: RawFeature, nameProperty?: string): string {
  const id = externalIdOf(f);
  const name = nameOf(f, nameProperty);
  const extra = [id && labelText(id), name !== undefined && name !== id ? JSON.stringify(labelText(name)) : undefined].filter(Boolean);
  return `feature ${f.index}${extra.length ? ` (${extra.join(' ')})` : ''}`;
}
