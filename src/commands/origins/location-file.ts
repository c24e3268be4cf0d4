// `origins create|update --location-file plot.geojson`: one plot's geometry from a file, checked
// as `origins check` checks it (an error: exit 2, nothing sent), sent as the origin's location.
import type { Context } from '../../context.js';
import { checkPlots, parseGeoJson, readGeoJsonFile, swappedOutside, type PlotGeometry } from '../../geo/index.js';
import { UsageError } from '../../errors.js';
import { findingLines, parseCountryFlag } from './check.js';

export async function readLocationFile(ctx: Context, file: string, countryCode: string | undefined): Promise<PlotGeometry> {
  const parsed = await readGeoJsonFile(file, ctx.io.stdin, ctx.signal);
  if (!parsed.problem && parsed.features.length !== 1) {
    throw new UsageError(
      `${parsed.name} holds ${parsed.features.length} features: --location-file takes one geometry or Feature`,
      {},
      'sct origins import --file creates one origin per feature',
    );
  }
  // --country-code is the origin's own country: it wins over whatever the Feature's properties say.
  const result = checkPlots(parsed, { countryCode: parseCountryFlag(countryCode), forceCountry: true });
  for (const line of findingLines(ctx.io, result.findings, 'stderr')) ctx.io.error(line);
  if (result.summary.errors > 0) {
    throw new UsageError(`${parsed.name}: ${result.summary.errors === 1 ? 'an error' : `${result.summary.errors} errors`} in the location; nothing was sent`);
  }
  return result.features[0].geometry!;
}

/** A point typed with --location, checked against its country: its errors only, exit 2. */
export function checkLocation(point: unknown, countryCode: string, name: string): void {
  const text = JSON.stringify({ type: 'Feature', properties: {}, geometry: point });
  const result = checkPlots(parseGeoJson(text, name, text.length), { countryCode: parseCountryFlag(countryCode), forceCountry: true });
  const errors = result.findings.filter((f) => f.level === 'error');
  if (errors.length === 0) return;
  // --location takes latitude first: the swap is said in its own terms, not GeoJSON's.
  const coordinates = (point as { coordinates?: number[] }).coordinates ?? [];
  const typed = !name.includes('{');
  const messages = errors.map((f) => {
    const outside = swappedOutside(f.message);
    if (!typed || !outside) return f.message;
    return `latitude and longitude look swapped: the point lies outside the country (${outside}); did you mean --location ${coordinates[0]},${coordinates[1]}?`;
  });
  throw new UsageError(`${name}: ${messages.join('; ')}; nothing was sent`);
}
