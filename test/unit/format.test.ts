import { describe, it, expect } from 'vitest';
import { createTestIO } from '../helpers/io.js';
import { createListWriter, writeOne, parseFormat } from '../../src/output/format.js';
import { cleanCell, cleanJsonText, stripControl, stripControlDeep } from '../../src/util/sanitize.js';
import { displayValue, flattenKeys, getPath } from '../../src/output/values.js';

const cols = [
  { header: 'ID', path: 'id' },
  { header: 'SELLER', path: 'seller_company.name' },
];
const rows = [
  { id: 1, seller_company: { name: 'Cacao Coop' }, tags: ['a', 'b'] },
  { id: 2, seller_company: { name: 'Evil\u001b]0;pwned\u0007 Corp\u001b[31m' }, tags: [] },
];

async function render(format: 'table' | 'json' | 'ndjson' | 'csv', pages: unknown[][], columns?: string, tty = false) {
  const t = createTestIO({ stdoutIsTTY: tty, columns: 60 });
  const w = createListWriter(t.io, { format, columns, defaults: cols });
  for (const p of pages) await w.write(p);
  await w.end();
  return t;
}

describe('list output', () => {
  it('json: one array across pages, objects as given', async () => {
    const t = await render('json', [[rows[0]], [rows[1]]]);
    expect(JSON.parse(t.stdout())).toEqual(rows);
  });

  it('json: an empty list is []', async () => {
    const t = await render('json', [[]]);
    expect(JSON.parse(t.stdout())).toEqual([]);
  });

  it('ndjson: one object per line', async () => {
    const t = await render('ndjson', [rows]);
    const lines = t.stdout().trim().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(rows);
  });

  it('csv: header once, dotted columns for nested objects, arrays JSON-encoded', async () => {
    const t = await render('csv', [[rows[0]], [rows[0]]]);
    const lines = t.stdout().trim().split('\n');
    expect(lines[0]).toBe('id,seller_company.name,tags');
    expect(lines[1]).toBe('1,Cacao Coop,"[""a"",""b""]"');
    expect(lines).toHaveLength(3);
  });

  it('csv: a field null in one row and an object in another is only its dotted columns, in place', async () => {
    const t = await render('csv', [
      [
        { id: 1, value_chain_detail: null, border: null, tags: [] },
        { id: 2, value_chain_detail: { id: 3, country: { name: 'Ghana' } }, border: {}, tags: [] },
        { id: 3, value_chain_detail: { id: 4, country: null }, border: { name: 'Sweden' }, tags: [] },
      ],
    ]);
    const lines = t.stdout().trim().split('\n');
    expect(lines[0]).toBe('id,value_chain_detail.id,value_chain_detail.country.name,border.name,tags');
    expect(lines.slice(1)).toEqual(['1,,,,[]', '2,3,Ghana,,[]', '3,4,,Sweden,[]']);
  });

  it('csv: a field that is text in one row and an object in another keeps a column of its own for the text, beside the dotted ones', async () => {
    const t = await render('csv', [
      [
        { id: 1, name: { en: 'Cocoa', fr: 'Cacao' }, size: 3 },
        { id: 2, name: 'Coffee', size: { value: 2, unit: 't' } },
        { id: 3, name: null, size: [1, 'two'] },
        { id: 4, name: false, size: {} },
      ],
    ]);
    const lines = t.stdout().trim().split('\n');
    expect(lines[0]).toBe('id,name,name.en,name.fr,size,size.value,size.unit');
    expect(lines.slice(1)).toEqual(['1,,Cocoa,Cacao,3,,', '2,Coffee,,,,2,t', '3,,,,"[1,""two""]",,', '4,false,,,,,']);
  });

  it('--columns naming a field no row has warns once (a typo prints empty cells otherwise)', async () => {
    const t = await render('csv', [[rows[0]], [rows[1]]], 'id,selller_company.name,seller_company.nmae');
    expect(t.stderr()).toBe('warning: --columns: no field "selller_company.name" in the results (check the spelling; -o json shows every field)\n');
    const table = await render('table', [[{ id: 1, value_chain_detail: null }]], 'id,value_chain_detail.id');
    expect(table.stderr()).toBe('');
  });

  it('csv: --columns picks and orders fields', async () => {
    const t = await render('csv', [rows.slice(0, 1)], 'seller_company.name,id');
    expect(t.stdout()).toBe('seller_company.name,id\nCacao Coop,1\n');
  });

  it('csv: an empty list is the header row alone (--columns, else the default fields)', async () => {
    expect((await render('csv', [[]], 'seller_company.name,id')).stdout()).toBe('seller_company.name,id\n');
    expect((await render('csv', [[]])).stdout()).toBe('id,seller_company.name\n');
    const t = createTestIO();
    const w = createListWriter(t.io, { format: 'csv', defaults: [] });
    await w.end();
    expect(t.stdout()).toBe('');
  });

  it('table: default columns, escape sequences from the API stripped', async () => {
    const t = await render('table', [rows]);
    const out = t.stdout();
    expect(out.split('\n')[0]).toMatch(/^ID\s+SELLER$/);
    expect(out).toContain('Cacao Coop');
    expect(out).toContain('Evil Corp');
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('\u0007');
  });

  it('table: fits the terminal width on a TTY', async () => {
    const long = [{ id: 1, seller_company: { name: 'x'.repeat(200) } }];
    const t = await render('table', [long], undefined, true);
    for (const line of t.stdout().trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(60);
  });

  it('table: no results goes to stderr; into a pipe the header row still comes, at a terminal nothing', async () => {
    const piped = await render('table', [[]]);
    expect(piped.stdout()).toBe(`${cols.map((c) => c.header).join('\t')}\n`);
    expect(piped.stderr()).toContain('no results');
    const terminal = await render('table', [[]], undefined, true);
    expect(terminal.stdout()).toBe('');
    expect(terminal.stderr()).toContain('no results');
  });

  describe('strings from the API on a terminal', () => {
    const hostile = {
      id: 3,
      name: 'C1\u009b31m csi\u0085 nel\u007f del',
      note: 'evil\u202Etxt.exe \u2066iso\u2069',
      ['key\u009b2J']: 'esc \u001b]0;pwned\u0007done',
    };
    const safe = { id: 3, name: 'C1 csi nel del', note: 'eviltxt.exe iso', key: 'esc done' };
    const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

    it('json and ndjson lose control characters, escapes and bidi controls, and stay valid JSON', async () => {
      for (const format of ['json', 'ndjson'] as const) {
        const t = await render(format, [[hostile]], undefined, true);
        expect(t.stdout(), format).not.toMatch(CONTROL);
        const parsed = format === 'json' ? JSON.parse(t.stdout()) : [JSON.parse(t.stdout())];
        expect(parsed).toEqual([safe]);
      }
      const one = createTestIO({ stdoutIsTTY: true });
      await writeOne(one.io, hostile, { format: 'json', defaults: [] });
      expect(JSON.parse(one.stdout())).toEqual(safe);
    });

    it('json and ndjson into a pipe keep the data as returned', async () => {
      for (const format of ['json', 'ndjson'] as const) {
        const t = await render(format, [[hostile]]);
        const parsed = format === 'json' ? JSON.parse(t.stdout()) : [JSON.parse(t.stdout())];
        expect(parsed).toEqual([hostile]);
      }
    });

    it('table and csv lose bidi controls; csv headers and key/value views too', async () => {
      const table = await render('table', [[hostile]], 'note', true);
      expect(table.stdout()).toContain('eviltxt.exe iso');
      const csv = await render('csv', [[hostile]], undefined, true);
      expect(csv.stdout()).not.toMatch(CONTROL);
      expect(csv.stdout().split('\n')[0]).toBe('id,name,note,key');
      const one = createTestIO({ stdoutIsTTY: true });
      await writeOne(one.io, hostile, { format: 'table', defaults: [] });
      expect(one.stdout()).not.toMatch(CONTROL);
      expect(one.stdout()).toMatch(/^key\s+esc done$/m);
    });
  });

  it('rejects unknown formats', () => {
    expect(() => parseFormat('xml')).toThrow(/table, json, ndjson, csv/);
  });
});

describe('single resource', () => {
  it('json is the object; table is field/value lines', async () => {
    const t = createTestIO();
    await writeOne(t.io, rows[0], { format: 'json', defaults: [] });
    expect(JSON.parse(t.stdout())).toEqual(rows[0]);
    const t2 = createTestIO();
    await writeOne(t2.io, { id: 7, country: { name: 'Ghana', alpha_2: 'GH', flag: '🇬🇭' } }, { format: 'table', defaults: [] });
    expect(t2.stdout()).toMatch(/^id\s+7$/m);
    expect(t2.stdout()).toMatch(/^country\s+🇬🇭 Ghana$/m);
  });
});

describe('values', () => {
  it('reads dotted paths and array indexes', () => {
    expect(getPath({ a: { b: [{ c: 3 }] } }, 'a.b.0.c')).toBe(3);
    expect(getPath({ a: null }, 'a.b')).toBeUndefined();
  });
  it('shows countries as flag and name', () => {
    expect(displayValue({ name: "Côte d'Ivoire", alpha_2: 'CI', flag: '🇨🇮' })).toBe("🇨🇮 Côte d'Ivoire");
  });
  it('flattens nested keys but keeps arrays whole', () => {
    expect(flattenKeys({ a: 1, b: { c: 2, d: { e: 3 } }, f: [1] })).toEqual(['a', 'b.c', 'b.d.e', 'f']);
  });
  it('strips CSI, OSC and C1 controls but keeps text', () => {
    expect(stripControl('a\u001b[2Jb\u001b]8;;http://x\u0007c\u0085d\u0000e\u009b31mf')).toBe('abcdef');
    expect(stripControl('a\u202ab\u202ec\u2066d\u2069e\u200ff')).toBe('abcde\u200ff');
  });
  it('leaves no control character of any code point in text or a table cell, and text without one as it is', () => {
    const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (let cp = 0; cp <= 0x3000; cp++) {
      const ch = String.fromCodePoint(cp);
      for (const text of [`a${ch}b`, `a${ch}[31mb`, ch]) {
        expect(stripControl(text)).not.toMatch(CONTROL);
        // A cell is one line: the Unicode line and paragraph separators break it as a newline does.
        expect(cleanCell(text)).not.toMatch(/[\t\n\u2028\u2029]/);
        expect(cleanCell(text)).not.toMatch(CONTROL);
        if (!CONTROL.test(text) && !/[\t\n\u2028\u2029]/.test(text)) expect(cleanCell(text)).toBe(text);
      }
    }
  });
});

describe('JSON text for a terminal', () => {
  const clean = (text: string) => Buffer.from(cleanJsonText(Buffer.from(text))).toString('utf8');
  it('cleans each string as a parsed value is cleaned, and leaves the numbers as they were written', () => {
    const text = '{"id":9007199254740993,"v":1.10,"n":"a\\u001b]0;t\\u0007b\u009b31mc","\u202ek":"x\\"y","t":"tab\\there"}';
    const out = clean(text);
    expect(out).toBe('{"id":9007199254740993,"v":1.10,"n":"abc","k":"x\\"y","t":"tab\\there"}');
    expect(JSON.parse(out)).toEqual(stripControlDeep(JSON.parse(text)));
  });
  it('cleans the short escapes of control characters (\\b, \\f, \\r) as the others, and keeps an escaped backslash', () => {
    expect(clean('{"a":"x\\ry\\bz\\fw","b":"c:\\\\bin","t":"a\\tb\\nc"}')).toBe('{"a":"xyzw","b":"c:\\\\bin","t":"a\\tb\\nc"}');
  });

  it('gives back text without a control character untouched (the same bytes)', () => {
    const bytes = Buffer.from('{"id":1,"name":"Café \\"Ω\\" \\u00e9"}');
    expect(cleanJsonText(bytes)).toBe(bytes);
  });
});

describe('csv for spreadsheets', () => {
  const hostile = [
    { id: 1, name: '=HYPERLINK("http://x")', note: '@SUM(1)', sku: '+1', code: '-2', tab: '\tx', cr: '\rx', n: -5, ok: true, quoted: "'=x", plain: "'x" },
  ];

  async function csv(rows: unknown[], o: { columns?: string; csvFormulas?: boolean; tty?: boolean } = {}) {
    const t = createTestIO({ stdoutIsTTY: o.tty });
    const w = createListWriter(t.io, { format: 'csv', columns: o.columns, csvFormulas: o.csvFormulas, defaults: cols });
    await w.write(rows);
    await w.end();
    return t;
  }

  it('writes a text cell that a spreadsheet would run as a formula with a leading quote', async () => {
    const t = await csv(hostile);
    expect(t.stdout()).toBe(
      'id,name,note,sku,code,tab,cr,n,ok,quoted,plain\n' +
        `1,"'=HYPERLINK(""http://x"")",'@SUM(1),'+1,'-2,'\tx,"'\rx",-5,true,''=x,'x\n`,
    );
  });

  it('guards on a terminal too, after the control characters are gone', async () => {
    const t = await csv([{ a: '\u001b[31m=1+1', b: '\r=2' }], { tty: true });
    expect(t.stdout()).toBe("a,b\n'=1+1,'=2\n");
  });

  it('guards header cells: keys come from the service too', async () => {
    const t = await csv([{ '=cmd': 'x' }]);
    expect(t.stdout()).toBe("'=cmd\nx\n");
  });

  it('--csv-formulas writes the cells exactly as the service sent them', async () => {
    const t = await csv(hostile, { csvFormulas: true });
    expect(t.stdout()).toBe(
      'id,name,note,sku,code,tab,cr,n,ok,quoted,plain\n' + `1,"=HYPERLINK(""http://x"")",@SUM(1),+1,-2,"\tx","\rx",-5,true,'=x,'x\n`,
    );
  });

  it('quotes a cell that begins or ends with white space, so a reader that trims keeps it (and its guard)', async () => {
    const t = await csv([{ a: '\t', b: ' x ', c: 'x y', d: '' }]);
    expect(t.stdout()).toBe(`a,b,c,d\n"'\t"," x ",x y,\n`);
  });

  it('guards a single resource written as csv', async () => {
    const t = createTestIO();
    await writeOne(t.io, { id: 7, name: '@SUM(1)' }, { format: 'csv', defaults: [] });
    expect(t.stdout()).toBe("id,name\n7,'@SUM(1)\n");
  });
});

describe('--columns never reaches object prototypes', () => {
  it('reads own properties only', () => {
    for (const path of ['toString', '__proto__', 'constructor', 'constructor.name', 'hasOwnProperty', 'a.toString', 'a.b.valueOf', 'tags.map']) {
      expect(getPath({ a: { b: 'x' }, tags: [] }, path), path).toBeUndefined();
    }
    // A key the API really sent is read, whatever its name.
    expect(getPath(JSON.parse('{"__proto__": 5, "constructor": {"name": "n"}}'), '__proto__')).toBe(5);
    expect(getPath(JSON.parse('{"constructor": {"name": "n"}}'), 'constructor.name')).toBe('n');
    expect(getPath({ a: [{ b: 1 }, { b: 2 }] }, 'a.1.b')).toBe(2);
  });

  it('prints empty cells and warns, in csv, table and the key/value view', async () => {
    const t = await render('csv', [rows], 'id,toString,constructor.name,__proto__');
    expect(t.stdout()).toBe('id,toString,constructor.name,__proto__\n1,,,\n2,,,\n');
    expect(t.stderr()).toContain('no field "toString", "constructor.name", "__proto__" in the results');
    const table = await render('table', [rows], 'id,toString,constructor.name');
    expect(table.stdout()).not.toMatch(/function|native code|Object/);
    expect(table.stderr()).toContain('no field "toString", "constructor.name"');
    const one = createTestIO();
    await writeOne(one.io, rows[0], { format: 'table', columns: 'id,valueOf,constructor', defaults: [] });
    expect(one.stdout()).not.toMatch(/function|native code|Object/);
    expect(one.stderr()).toContain('no field "valueOf", "constructor"');
  });
});
