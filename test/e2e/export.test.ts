// `--all` exports with the built sct, through a proxy on 127.0.0.1 in front of the sandbox that
// can serve a page as another server would write it (pretty-printed, or broken). csv is byte
// for byte what the csv-stringify writer made of the same pages; json and ndjson are the API's
// values, item for item; --columns and --jq still work across every page; a page that is not
// JSON ends the run with an error, never in the output.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { sctFor } from '../helpers/sct.js';
import { OWNER } from '../sandbox/helpers.js';
import { startHostile, type Behaviour, type Hostile } from '../helpers/hostile.js';
import { referenceCsv } from '../helpers/reference-writers.js';
import { csvColumnsOfCommand } from '../helpers/printed.js';

const t = useSandbox();
let h: Hostile;

beforeAll(async () => {
  h = await startHostile(t.sb.url);
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.reset();
});

const PAGE = 40;
const sct = (args: string[]) => sctFor(h.url, OWNER, t.dir)(['orders', 'list', '--buying', '--all', '--page-size', String(PAGE), ...args]);

/** The buying orders as the API pages them, PAGE at a time. */
async function apiPages(): Promise<Record<string, unknown>[][]> {
  const pages: Record<string, unknown>[][] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await t.api(`/orders?order_action=buying&limit=${PAGE}&offset=${offset}`);
    pages.push(page.results);
    if (!page.next) return pages;
  }
}

/** The second page (offset PAGE) rewritten by `rewrite`; the others as the sandbox sent them. */
const secondPage =
  (rewrite: (text: string) => string): Behaviour =>
  async (req, res, _body, forward) => {
    const up = await forward({ identity: true });
    const text = up.body.toString('utf8');
    const offset = new URL(req.url ?? '/', 'http://x').searchParams.get('offset');
    res.writeHead(up.status, { 'content-type': 'application/json' });
    res.end(offset === String(PAGE) ? rewrite(text) : text);
  };
/** The columns of `orders list -o csv`: an order's documented fields. */
const ORDER_CSV = await csvColumnsOfCommand('orders list');
const prettyPrinted = (text: string) => JSON.stringify(JSON.parse(text), null, 2);

describe('--all exports', () => {
  let pages: Record<string, unknown>[][];
  beforeAll(async () => {
    pages = await apiPages();
    expect(pages.length).toBeGreaterThan(2);
  });

  it('csv: the bytes the csv-stringify writer wrote, with a page served pretty-printed among compact ones', async () => {
    const plain = await sct(['-o', 'csv']);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout).toBe(referenceCsv(pages, { documented: ORDER_CSV }));
    h.on('GET /api/orders', secondPage(prettyPrinted));
    const pretty = await sct(['-o', 'csv']);
    expect(pretty.stdout).toBe(plain.stdout);
  });

  it('json: every order with the values the API returned, compact and pretty-printed pages alike', async () => {
    const plain = await sct(['-o', 'json']);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual(pages.flat());
    h.on('GET /api/orders', secondPage(prettyPrinted));
    const pretty = await sct(['-o', 'json']);
    expect(pretty.exitCode, pretty.stderr).toBe(0);
    expect(JSON.parse(pretty.stdout)).toEqual(pages.flat());
    // The pretty-printed page is parsed and written compact, the others copied as they came.
    expect(pretty.stdout).toBe(plain.stdout);
  });

  it('ndjson: one order a line, whatever the page looked like', async () => {
    h.on('GET /api/orders', secondPage(prettyPrinted));
    const r = await sct(['-o', 'ndjson']);
    expect(r.exitCode, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(pages.flat());
  });

  it('keeps the service own spelling of the items it copies', async () => {
    // A page written by another JSON library: escaped accents, a trailing zero, spaces.
    const respelled = (text: string) => text.replace(/"external_id":"([^"]*)"/g, '"external_id": "\\u00e9$1"').replace(/"volume":(\d+\.\d+)/g, '"volume": $10');
    h.on('GET /api/orders', secondPage(respelled));
    const r = await sct(['-o', 'ndjson']);
    expect(r.exitCode, r.stderr).toBe(0);
    const second = r.stdout.split('\n').slice(PAGE, 2 * PAGE);
    expect(second[0]).toContain('"external_id": "\\u00e9');
    expect(second.map((l) => JSON.parse(l))).toEqual(pages[1].map((o) => JSON.parse(respelled(JSON.stringify(o)))));
  });

  it('--columns picks the fields on every page, in json, ndjson and csv', async () => {
    const columns = 'id,seller_company.name,items';
    const picked = pages.flat().map((o) => ({ id: o.id, seller_company: o.seller_company === null ? null : { name: (o.seller_company as { name: string }).name }, items: o.items }));
    const [json, ndjson, csv] = await Promise.all([sct(['-o', 'json', '--columns', columns]), sct(['-o', 'ndjson', '--columns', columns]), sct(['-o', 'csv', '--columns', columns])]);
    expect(JSON.parse(json.stdout)).toEqual(picked);
    expect(ndjson.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(picked);
    expect(csv.stdout).toBe(referenceCsv(pages, { columns }));
  });

  it('--jq runs once on the whole array of every page', async () => {
    const r = await sct(['--jq', '[length, .[0].id, .[-1].id]']);
    expect(r.exitCode, r.stderr).toBe(0);
    const all = pages.flat();
    expect(JSON.parse(r.stdout)).toEqual([all.length, all[0].id, all[all.length - 1].id]);
  });

  it.each([
    ['a raw control character in a string', (text: string) => text.replace('"external_id":"', '"external_id":"\u0001')],
    ['a trailing comma', (text: string) => text.replace(/]}$/, ',]}')],
    ['a cut-off page', (text: string) => text.slice(0, text.length / 2)],
  ])('a page with %s is an error, never output: the rows before it, closed, and exit 1', async (_what, breakIt) => {
    h.on('GET /api/orders', secondPage(breakIt));
    const [json, ndjson, csv] = await Promise.all([sct(['-o', 'json']), sct(['-o', 'ndjson']), sct(['-o', 'csv'])]);
    for (const r of [json, ndjson, csv]) {
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/GET \/orders: the answer is not JSON \(200 OK/);
    }
    expect(JSON.parse(json.stdout)).toEqual(pages[0]);
    expect(ndjson.stdout.trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(pages[0]);
    expect(csv.stdout).toBe(referenceCsv([pages[0]], { documented: ORDER_CSV }));
  });
});

describe('--all at a terminal', () => {
  it('json and ndjson still lose escape sequences and control characters', async () => {
    const evil = '"external_id":"\\u001b]0;pwned\\u0007\\u009b31m\\u202eX';
    h.on('GET /api/orders', secondPage((text) => text.replace('"external_id":"', evil)));
    for (const format of ['json', 'ndjson']) {
      const r = await t.sctIn(['orders', 'list', '--buying', '--all', '--page-size', String(PAGE), '-o', format], { tty: true, env: { SCT_BASE_URL: h.url } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/[\u001b\u0007\u009b\u202e]|\\u001b|\\u0007|\\u009b|\\u202e/);
      // The whole OSC sequence (title and all) and the CSI go; the text around them stays.
      expect(r.stdout).toMatch(/"external_id":"X(PO|SO|BATCH)-/);
    }
  });
});
