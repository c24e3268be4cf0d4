import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { readCsv } from '../../src/bulk/csv.js';
import { UsageError } from '../../src/errors.js';

const fromText = (text: string) => readCsv('-', Readable.from([text]));

async function usage(p: Promise<unknown>): Promise<UsageError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(UsageError);
  return e as UsageError;
}

describe('readCsv', () => {
  it('normalises headers and numbers the lines from the header', async () => {
    const csv = await fromText('External ID,unit-price\nA,1\n\nB,2\n');
    expect(csv.columns).toEqual(['external_id', 'unit_price']);
    expect(csv.rows).toEqual([
      { line: 2, values: { external_id: 'A', unit_price: '1' } },
      { line: 4, values: { external_id: 'B', unit_price: '2' } },
    ]);
  });

  it('refuses two headers that are the same column', async () => {
    const e = await usage(fromText('name,type,Type\nx,a,b\n'));
    expect(e.message).toBe('stdin line 1: columns 2 ("type") and 3 ("Type") are the same column, type');
    const dashed = await usage(fromText('external-id,External ID\n1,2\n'));
    expect(dashed.message).toContain('are the same column, external_id');
  });

  it('refuses a column without a name', async () => {
    const e = await usage(fromText('name,,country_code\nx,y,CI\n'));
    expect(e.message).toBe('stdin line 1: column 2 has no name');
  });

  it('names the line of a row with the wrong number of cells', async () => {
    const e = await usage(fromText('a,b\n1,2\n3\n'));
    expect(e.message).toMatch(/^stdin line 3: /);
  });

  it('needs a data row and the required columns', async () => {
    expect((await usage(fromText('a,b\n'))).message).toContain('no data rows');
    expect((await usage(readCsv('-', Readable.from(['a\n1\n']), ['email']))).message).toBe('stdin: missing column email (found: a)');
  });
});
