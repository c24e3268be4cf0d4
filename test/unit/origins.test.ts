// The pure pieces of the origins commands: location formats, list filter mapping, CSV rows.
import { describe, expect, it } from 'vitest';
import { originCreateSchema, originUpdateSchema, parseLocation, pointProblem } from '../../src/api/schemas/origins.js';
import { originListQuery, parseLocationFlag } from '../../src/commands/origins.js';
import { parsePercentage } from '../../src/commands/shared/filters.js';
import { importColumnNames, originFromRow, originUnits } from '../../src/commands/origins/import.js';
import { parseCountryCodes } from '../../src/commands/shared/list.js';
import { RowErrors, type CsvRow } from '../../src/bulk/csv.js';
import { UsageError } from '../../src/errors.js';

const row = (line: number, values: Record<string, string>): CsvRow => ({ line, values });

/** The field errors a RowErrors would fail with. */
function rowErrors(errors: RowErrors): Record<string, string[]> {
  try {
    errors.throwIfAny();
  } catch (err) {
    return (err as UsageError).fields;
  }
  return {};
}

describe('parseLocation', () => {
  it('turns "lat,lng" into a GeoJSON Point with longitude first', () => {
    expect(parseLocation('5.35,-4.02')).toEqual({ type: 'Point', coordinates: [-4.02, 5.35] });
    expect(parseLocation(' -12.5 , 130 ')).toEqual({ type: 'Point', coordinates: [130, -12.5] });
    expect(parseLocation('90,180')).toEqual({ type: 'Point', coordinates: [180, 90] });
  });

  it('accepts a GeoJSON Point, with or without altitude', () => {
    expect(parseLocation('{"type":"Point","coordinates":[-4.02,5.35]}')).toEqual({ type: 'Point', coordinates: [-4.02, 5.35] });
    expect(parseLocation('{"type":"Point","coordinates":[1,2,300]}').coordinates).toEqual([1, 2, 300]);
  });

  it.each([
    ['95,0', /latitude 95 is out of range -90\.\.90/],
    ['-90.5,0', /latitude -90\.5 is out of range/],
    ['0,180.1', /longitude 180\.1 is out of range -180\.\.180/],
    ['abc,1', /latitude "abc" is not a number/],
    ['1,', /longitude "" is not a number/],
    ['1,2,3', /expected "lat,lng"/],
    ['5.35', /expected "lat,lng"/],
    ['1e3,2', /not a number/],
    ['{"type":"Point"', /not valid JSON/],
    ['{"type":"Polygon","coordinates":[]}', /expected a GeoJSON Point, got type "Polygon"/],
    ['{"type":"Point","coordinates":[1]}', /coordinates/],
    ['{"type":"Point","coordinates":["1","2"]}', /coordinates/],
    ['{"type":"Point","coordinates":[200,0]}', /longitude 200 is out of range/],
    ['{"type":"Point","coordinates":[0,-91]}', /latitude -91 is out of range/],
  ])('rejects %s', (text, message) => {
    expect(() => parseLocation(text)).toThrow(message);
  });

  it('names the flag when it comes from --location', async () => {
    await expect(parseLocationFlag('95,0')).rejects.toThrow(UsageError);
    await expect(parseLocationFlag('95,0')).rejects.toThrow('invalid --location "95,0": latitude 95 is out of range -90..90');
    expect(await parseLocationFlag(undefined)).toBeUndefined();
  });
});

describe('origin schemas', () => {
  it('requires name and country code on create, upper-cases the code, passes unknown fields', () => {
    const ok = originCreateSchema.safeParse({ name: 'Farm', country_code: 'ci', mapping_external_id: 'M-1' });
    expect(ok.success && ok.data).toEqual({ name: 'Farm', country_code: 'CI', mapping_external_id: 'M-1' });
    const bad = originCreateSchema.safeParse({ country_code: 'CIV' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.path[0]).sort()).toEqual(['country_code', 'name']);
  });

  it('checks a Point location and lets other geometries and null through', () => {
    expect(originUpdateSchema.safeParse({ location: { type: 'Point', coordinates: [0, 100] } }).success).toBe(false);
    expect(originUpdateSchema.safeParse({ location: { type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] } }).success).toBe(true);
    expect(originUpdateSchema.safeParse({ location: null }).success).toBe(true);
    // However it arrives (--set, --file, CSV): "lat,lng" becomes a Point, junk is refused.
    expect(originUpdateSchema.parse({ location: '5.35,-4.02' })).toEqual({ location: { type: 'Point', coordinates: [-4.02, 5.35] } });
    expect(originUpdateSchema.safeParse({ location: '95,1' }).error!.issues[0].message).toBe('latitude 95 is out of range -90..90');
    expect(originUpdateSchema.safeParse({ location: { lat: 1, lng: 2 } }).error!.issues[0].message).toMatch(/^expected "lat,lng" \(e\.g\. 5\.35,-4\.02\) or a GeoJSON geometry/);
    expect(originUpdateSchema.safeParse({ location: [1, 2] }).success).toBe(false);
    expect(originUpdateSchema.safeParse({ name: 'x'.repeat(256) }).success).toBe(false);
    expect(originUpdateSchema.safeParse({ external_id: 'x'.repeat(256) }).success).toBe(false);
  });

  it('pointProblem says nothing about a good Point', () => {
    expect(pointProblem({ type: 'Point', coordinates: [-4.02, 5.35] })).toBeUndefined();
  });
});

describe('list filters', () => {
  const q = (opts: Parameters<typeof originListQuery>[0]) => Object.fromEntries(originListQuery(opts));

  it('maps every named flag to its documented query parameter', () => {
    expect(
      q({
        countryCode: 'ci',
        assessmentStatus: 'passing',
        name: 'farm',
        description: 'cocoa',
        externalId: 'A-1',
        createdFrom: '2024-01-01',
        createdTo: '2024-12-31',
        updatedFrom: '2025-01-01',
        updatedTo: '2025-02-01',
        passingMin: '50',
        failingMin: '12.5',
        id: '1,2',
        excludeId: '3',
      }),
    ).toEqual({
      country_code: 'CI',
      assessment_status: 'passing',
      name__icontains: 'farm',
      description__icontains: 'cocoa',
      external_id: 'A-1',
      created_at__date__gte: '2024-01-01',
      created_at__date__lte: '2024-12-31',
      updated_at__date__gte: '2025-01-01',
      updated_at__date__lte: '2025-02-01',
      passing_percentage_gte: '50',
      failing_percentage_gte: '12.5',
      id__in: '1,2',
      id__exclude_in: '3',
    });
  });

  it('uses __in for several values', () => {
    expect(q({ countryCode: 'ci, gh', assessmentStatus: 'passing,failing', externalId: 'A,B' })).toEqual({
      country_code__in: 'CI,GH',
      assessment_status__in: 'passing,failing',
      external_id__in: 'A,B',
    });
  });

  it.each([
    [{ countryCode: 'CIV' }, '--country-code'],
    [{ countryCode: ',' }, '--country'],
    [{ assessmentStatus: 'great' }, '--assessment-status'],
    [{ assessmentStatus: ',' }, '--assessment-status needs a value'],
    [{ createdFrom: '2024-02-30' }, '--created-from'],
    [{ updatedTo: '1/2/2024' }, '--updated-to'],
    [{ createdFrom: '2024-05-01', createdTo: '2024-04-01' }, 'range is empty'],
    [{ passingMin: '101' }, '--passing-min'],
    [{ failingMin: '-1' }, '--failing-min'],
    [{ id: '1,x' }, '--id'],
    [{ excludeId: '' }, '--exclude-id'],
  ])('rejects %o', (opts, message) => {
    expect(() => originListQuery(opts)).toThrow(UsageError);
    expect(() => originListQuery(opts)).toThrow(message);
  });

  it('parses country codes and percentages', () => {
    expect(parseCountryCodes('ci,Gh', '--country')).toEqual(['CI', 'GH']);
    expect(parsePercentage('0', '--passing-min')).toBe(0);
    expect(parsePercentage('100', '--passing-min')).toBe(100);
    expect(() => parsePercentage('abc', '--passing-min')).toThrow('expected a number 0..100');
  });
});

describe('CSV rows', () => {
  it('builds the body, leaving empty cells out and converting coordinates', () => {
    const errors = new RowErrors('o.csv');
    const body = originFromRow(
      row(2, { name: 'Farm A', country_code: 'ci', description: '', external_id: 'A-1', latitude: '5.35', longitude: '-4.02' }),
      errors,
    );
    expect(errors.size).toBe(0);
    expect(body).toEqual({ name: 'Farm A', country_code: 'CI', external_id: 'A-1', location: { type: 'Point', coordinates: [-4.02, 5.35] } });
  });

  it('takes location as "lat,lng" or GeoJSON', () => {
    const errors = new RowErrors('o.csv');
    expect(originFromRow(row(2, { name: 'A', country_code: 'GH', location: '6.1,-1.2' }), errors)?.location).toEqual({ type: 'Point', coordinates: [-1.2, 6.1] });
    expect(originFromRow(row(3, { name: 'B', country_code: 'GH', location: '{"type":"Point","coordinates":[-1.2,6.1]}' }), errors)?.location).toEqual({
      type: 'Point',
      coordinates: [-1.2, 6.1],
    });
    expect(errors.size).toBe(0);
  });

  it('names the line and column of every problem', () => {
    const errors = new RowErrors('o.csv');
    expect(originFromRow(row(2, { name: '', country_code: 'CIV', latitude: '95', longitude: '0' }), errors)).toBeUndefined();
    originFromRow(row(3, { name: 'x'.repeat(256), country_code: '', latitude: '1' }), errors);
    originFromRow(row(4, { name: 'ok', country_code: 'CI', longitude: 'abc', latitude: '1' }), errors);
    originFromRow(row(5, { name: 'ok', country_code: 'CI', location: '1,2', latitude: '1' }), errors);
    originFromRow(row(6, { name: 'ok', country_code: 'CI', external_id: 'e'.repeat(256) }), errors);
    const fields = rowErrors(errors);
    expect(Object.keys(fields)).toEqual([
      'line 2, name',
      'line 2, country_code',
      'line 2, latitude',
      'line 3, name',
      'line 3, country_code',
      'line 3, longitude',
      'line 4, longitude',
      'line 5, location',
      'line 6, external_id',
    ]);
    expect(fields['line 2, name']).toEqual(['This field is required.']);
    expect(fields['line 2, latitude'][0]).toContain('out of range');
    expect(fields['line 3, longitude']).toEqual(['missing (latitude is given)']);
  });

  it('keys units by external_id, else by line, and journals line rows by content', async () => {
    const errors = new RowErrors('o.csv');
    const units = await originUnits(
      [
        row(2, { name: 'A', country_code: 'CI', external_id: 'A-1' }),
        row(3, { name: 'B', country_code: 'CI' }),
        row(4, { name: 'B', country_code: 'CI' }),
      ],
      errors,
    );
    expect(errors.size).toBe(0);
    expect(units.map((u) => [u.key, u.lines])).toEqual([['A-1', [2]], ['line 3', [3]], ['line 4', [4]]]);
    expect(units[0].journalKey).toBe('ext:A-1');
    // Two identical rows are two origins; their journal keys differ but do not depend on the line.
    expect(units[1].journalKey).not.toBe(units[2].journalKey);
    const moved = await originUnits([row(7, { name: 'B', country_code: 'CI' })], new RowErrors('o.csv'));
    expect(moved[0].journalKey).toBe(units[1].journalKey);
  });

  it('reads lat/lng headers as latitude/longitude and names them as the file does', () => {
    const names = importColumnNames(['name', 'country_code', 'lat', 'lon']);
    expect(names).toMatchObject({ latitude: 'lat', longitude: 'lon', location: 'location' });
    const errors = new RowErrors('o.csv');
    expect(originFromRow(row(2, { name: 'A', country_code: 'CI', lat: '5.35', lon: '-4.02' }), errors, names)?.location).toEqual({
      type: 'Point',
      coordinates: [-4.02, 5.35],
    });
    originFromRow(row(3, { name: 'A', country_code: 'CI', lat: '99', lon: '1' }), errors, names);
    originFromRow(row(4, { name: 'A', country_code: 'CI', lat: '', lon: '1' }), errors, names);
    expect(rowErrors(errors)).toEqual({ 'line 3, lat': ['latitude 99 is out of range -90..90'], 'line 4, lat': ['missing (lon is given)'] });
    expect(importColumnNames(['latitude', 'lat'])).toMatchObject({ latitude: 'latitude' });
  });

  it('rejects an external_id used twice', async () => {
    const errors = new RowErrors('o.csv');
    await originUnits([row(2, { name: 'A', country_code: 'CI', external_id: 'X' }), row(5, { name: 'B', country_code: 'CI', external_id: 'X' })], errors);
    expect(rowErrors(errors)).toEqual({ 'line 5, external_id': ['"X" is also on line 2; each origin needs its own external_id'] });
  });
});
