// sct origins import: validation before sending, one idempotent POST per row, the report, and
// reruns that neither lose nor duplicate origins.
import { beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { startSandbox } from '../../src/sandbox/server.js';
import { sctFor } from '../helpers/sct.js';
import { until, useSandbox } from '../helpers/sandbox.js';
import { OWNER } from '../sandbox/helpers.js';

const t = useSandbox({}, { inProcess: true });
let run = 0;
beforeEach(() => {
  run++;
});

const posts = () => t.sb.requests.filter((r) => r.method === 'POST' && r.path === '/api/origins');

const csvFile = (text: string, name = 'origins.csv'): string => t.writeFile(name, text);

/** Rows with external ids unique to this test, so earlier tests' origins never match. */
function rows(n: number, prefix = `T${run}`): string {
  const lines = ['name,country_code,description,external_id,latitude,longitude'];
  for (let i = 1; i <= n; i++) lines.push(`Farm ${prefix}-${i},CI,plot ${i},${prefix}-${i},5.${i},-4.0${i}`);
  return lines.join('\n') + '\n';
}

/** Origins in the sandbox with these external ids (through the API, not sct). */
async function originsWith(externalIds: string[]): Promise<Array<{ id: number; external_id: string }>> {
  return (await t.api(`/origins?external_id__in=${encodeURIComponent(externalIds.join(','))}&limit=1000`)).results;
}

describe('origins import', () => {
  it('creates one origin per row, each POST with its own idempotency key, and reports per row', async () => {
    const file = csvFile(
      'Name,Country Code,Description,External ID,Latitude,Longitude,Location\n' +
        `Farm A,ci,first,IMP-A,5.35,-4.02,\n` +
        `Farm B,GH,,IMP-B,,,"6.1,-1.2"\n` +
        `Farm C,gh,,,,,"{""type"":""Point"",""coordinates"":[-1.5,6.5]}"\n` +
        `Farm D,BR,,,,,\n`,
    );
    const r = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('origins: 4 created, 0 rejected');
    const report = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(report.map((x) => [x.lines, x.key, x.status])).toEqual([
      [[2], 'IMP-A', 'created'],
      [[3], 'IMP-B', 'created'],
      [[4], 'line 4', 'created'],
      [[5], 'line 5', 'created'],
    ]);
    expect(report.every((x) => typeof x.id === 'number' && x.error === null && x.fields === null)).toBe(true);

    expect(posts()).toHaveLength(4);
    const bodies = posts().map((p) => JSON.parse(p.body)).sort((a, b) => a.name.localeCompare(b.name));
    expect(bodies).toEqual([
      { name: 'Farm A', country_code: 'CI', description: 'first', external_id: 'IMP-A', location: { type: 'Point', coordinates: [-4.02, 5.35] } },
      { name: 'Farm B', country_code: 'GH', external_id: 'IMP-B', location: { type: 'Point', coordinates: [-1.2, 6.1] } },
      { name: 'Farm C', country_code: 'GH', location: { type: 'Point', coordinates: [-1.5, 6.5] } },
      { name: 'Farm D', country_code: 'BR' },
    ]);
    const keys = new Set(posts().map((p) => p.headers['idempotency-key']));
    expect(keys.size).toBe(4);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // Rerun after success: nothing is sent (only who the token acts for is read), every row is
    // reported as skipped with its id.
    t.sb.requests.length = 0;
    const again = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(t.sb.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /api/accounts/me']);
    const skipped = JSON.parse(again.stdout) as Array<Record<string, unknown>>;
    expect(skipped.map((x) => [x.status, x.id])).toEqual(report.map((x) => ['skipped', x.id]));
    expect(again.stderr).toContain('0 created, 4 skipped (done in an earlier run), 0 rejected');
  });

  it('checks a plot given in a location cell as a plot file is checked: a ring that crosses itself is exit 2, nothing sent; a good polygon goes', async () => {
    const bowtie = '{""type"":""Polygon"",""coordinates"":[[[-1.622774,6.693311],[-1.62492,6.691573],[-1.624302,6.693344],[-1.622384,6.691104],[-1.622774,6.693311]]]}';
    const square = '{""type"":""Polygon"",""coordinates"":[[[-1.62,6.69],[-1.619,6.69],[-1.619,6.691],[-1.62,6.691],[-1.62,6.69]]]}';
    const line = '{""type"":""LineString"",""coordinates"":[[-1.62,6.69],[-1.619,6.69]]}';
    const file = csvFile(`name,country_code,external_id,location\nBow,GH,CELL-1,"${bowtie}"\nSquare,GH,CELL-2,"${square}"\nLine,GH,CELL-3,"${line}"\n`, 'cells.csv');
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
    expect(r.stderr).toContain('error: cells.csv: 2 invalid rows; nothing was sent');
    expect(r.stderr).toContain('line 2, location: ring 1 (outer) crosses itself at [-1.6236596, 6.6925938]');
    expect(r.stderr).toMatch(/line 4, location: .*LineString/);
    const ok = await t.sct(['origins', 'import', '--file', file, '--skip-invalid', '--dry-run', '-o', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(3);
    expect((JSON.parse(ok.stdout) as Array<{ body: { external_id: string } }>).map((q) => q.body.external_id)).toEqual(['CELL-2']);
  });

  it('checks a point of latitude and longitude against its country as origins create does: swapped or far outside is exit 2, nothing sent', async () => {
    const file = csvFile(
      'name,country_code,external_id,latitude,longitude,location\n' +
        'Swapped,CI,PT-1,-4.0,5.3,\n' +
        'Good,CI,PT-2,6.8203,-5.2897,\n' +
        'Island,CO,PT-3,12.55,-81.72,\n' +
        'Cell,CI,PT-4,,,"-4.0,5.3"\n',
      'points.csv',
    );
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run']);
    expect(r.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
    expect(r.stderr).toContain('error: points.csv: 2 invalid rows; nothing was sent');
    expect(r.stderr).toMatch(/line 2, latitude: latitude and longitude look swapped: the point lies [\d,]+ km outside Côte d'Ivoire \(CI\); did you mean latitude 5\.3, longitude -4\?/);
    expect(r.stderr).toMatch(/line 5, location: latitude and longitude look swapped/);
    // San Andrés is Colombia's, though the country outlines leave the island out: only a swap is refused.
    expect(r.stderr).not.toContain('line 4');
    const ok = await t.sct(['origins', 'import', '--file', file, '--skip-invalid', '--dry-run', '-o', 'json']);
    expect(ok.exitCode, ok.stderr).toBe(3);
    expect((JSON.parse(ok.stdout) as Array<{ body: { external_id: string } }>).map((q) => q.body.external_id)).toEqual(['PT-2', 'PT-3']);
    const pair = csvFile('name,country_code,location.type,location.coordinates\nX,CI,Point,"[5.3,-4.0]"\n', 'pair.csv');
    const named = await t.sct(['origins', 'import', '--file', pair, '--dry-run']);
    expect(named.stderr).toMatch(/line 2, location\.coordinates: latitude and longitude look swapped/);
    // A sync reads its file as an import does.
    const sync = await t.sct(['origins', 'sync', '--file', file, '--dry-run']);
    expect(sync.exitCode).toBe(2);
    expect(sync.stderr).toMatch(/line 2, latitude: latitude and longitude look swapped/);
  });

  it('rejects a file with bad rows before sending anything, naming line and column', async () => {
    const file = csvFile(
      'name,country_code,external_id,latitude,longitude,location\n' +
        'Good,CI,BAD-1,6.82,-5.29,\n' +
        ',CIV,BAD-2,95,0,\n' +
        'Other,GH,BAD-3,,7,\n' +
        'Third,GH,BAD-1,,,"1,2,3"\n' +
        'Fourth,ZZ,BAD-4,,,\n',
      'bad.csv',
    );
    const r = await t.sct(['origins', 'import', '--file', file]);
    expect(r.exitCode).toBe(2);
    expect(t.sb.requests).toHaveLength(0);
    expect(r.stderr).toContain('error: bad.csv: 4 invalid rows; nothing was sent');
    expect(r.stderr).toContain('line 6, country_code: "ZZ" is not an ISO 3166-1 alpha-2 country code');
    expect(r.stderr).toContain('line 3, name: This field is required.');
    expect(r.stderr).toMatch(/line 3, country_code: expected a 2-letter country code/);
    expect(r.stderr).toContain('line 3, latitude: latitude 95 is out of range -90..90');
    expect(r.stderr).toContain('line 4, latitude: missing (longitude is given)');
    expect(r.stderr).toContain('line 5, external_id: "BAD-1" is also on line 2');
    expect(r.stderr).toMatch(/line 5, location: expected "lat,lng"/);
  });

  it('rejects missing columns, a ragged row, a missing file and an existing report file, sending nothing', async () => {
    const noCountry = csvFile('name,external_id\nA,X-1\n', 'nocountry.csv');
    const ragged = csvFile('name,country_code\nA,CI\nB,CI,extra\n', 'ragged.csv');
    const good = csvFile(rows(1));
    const existing = join(t.dir, 'report.csv');
    writeFileSync(existing, 'keep me');
    const a = await t.sctIn(['origins', 'import', '--file', noCountry]);
    const b = await t.sctIn(['origins', 'import', '--file', ragged]);
    const c = await t.sctIn(['origins', 'import', '--file', good, '--report', existing]);
    const d = await t.sctIn(['origins', 'import', '--file', good, '--concurrency', '0']);
    const e = await t.sctIn(['origins', 'import', '--file', join(t.dir, 'nope.csv')]);
    const f = await t.sctIn(['origins', 'import']);
    expect(a.exitCode).toBe(2);
    expect(a.stderr).toContain('nocountry.csv: missing column country_code');
    expect(b.exitCode).toBe(2);
    expect(b.stderr).toContain('ragged.csv line 3');
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toContain('already exists: pass --force');
    expect(readFileSync(existing, 'utf8')).toBe('keep me');
    expect(d.exitCode).toBe(2);
    expect(d.stderr).toContain('invalid --concurrency');
    expect(e.exitCode).toBe(2);
    expect(e.stderr).toContain('cannot read');
    expect(f.exitCode).toBe(2);
    expect(f.stderr).toContain("required option '--file <file>'");
    expect(t.sb.requests).toHaveLength(0);
  });

  it('checks the file and sends nothing with --dry-run', async () => {
    const r = await t.sct(['origins', 'import', '--file', csvFile(rows(2)), '--dry-run', '-o', 'csv']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(t.sb.requests).toHaveLength(0);
    expect(parse(r.stdout, { columns: true })).toHaveLength(2);
    expect(r.stderr).toContain('2 valid origins in 2 requests; nothing sent (dry run)');
  });

  it('reads a named pipe (FIFO) once, as a CSV file or as the plot file its name says', async () => {
    const { execFileSync } = await import('node:child_process');
    const { writeFile } = await import('node:fs/promises');
    for (const [name, text, more] of [
      [`rows-${run}.csv`, rows(2), []],
      [`plots-${run}.geojson`, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Pipe farm' }, geometry: { type: 'Point', coordinates: [-5.5, 7.5] } }] }), ['--country-code', 'CI']],
    ] as const) {
      const fifo = join(t.dir, name);
      execFileSync('mkfifo', [fifo]);
      // The built sct: a run that opened the pipe twice waited for a second writer for ever.
      const running = t.sctBin(['origins', 'import', '--file', fifo, '--dry-run', ...more], { timeout: 20_000 });
      await writeFile(fifo, text);
      const r = await running;
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(name.endsWith('.csv') ? '2 valid origins in 2 requests; nothing sent (dry run)' : '1 valid origin in 1 request; nothing sent (dry run)');
    }
    expect(t.sb.requests).toHaveLength(0);
  });

  it('a service that stays down (503 after every retry) stops the run with exit 1: no row is reported rejected, and a rerun sends them all, the first under its key', async () => {
    const file = csvFile(rows(3));
    const report = join(t.dir, 'report.csv');
    // Every attempt at the first row (the first try and three retries) is answered 503.
    t.sb.setFaults({ failFirst: 4, methods: ['POST'] });
    // In-process only for the client's retry delay: the backoff would otherwise cost seconds.
    const r = await t.sctIn(['origins', 'import', '--file', file, '--report', report, '--concurrency', '1'], { clientOptions: { retryBaseMs: 1 } });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('origins: 0 created, 0 rejected, 3 not sent');
    expect(r.stderr).toMatch(/error: Service temporarily unavailable.*503 Service Unavailable on POST \/origins/);
    expect(r.stderr).toContain('to continue, rerun: sct ');
    const lines = parse(readFileSync(report, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    expect(lines.map((l) => [l.line, l.key, l.status])).toEqual([
      ['2', `T${run}-1`, 'not_sent'],
      ['3', `T${run}-2`, 'not_sent'],
      ['4', `T${run}-3`, 'not_sent'],
    ]);
    const firstKey = posts()[0].headers['idempotency-key'];

    t.sb.requests.length = 0;
    const again = await t.sct(['origins', 'import', '--file', file, '--report', report, '--force']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(posts()).toHaveLength(3);
    expect(JSON.parse(posts()[0].body).external_id).toBe(`T${run}-1`);
    expect(posts()[0].headers['idempotency-key']).toBe(firstKey);
    expect(again.stderr).toContain('origins: 3 created, 0 rejected');
    expect(await originsWith([1, 2, 3].map((i) => `T${run}-${i}`))).toHaveLength(3);
  });

  it('stops cleanly on Ctrl-C (exit 130) and a rerun finishes without duplicates', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `T${run}-${i + 1}`);
    const file = csvFile(rows(8));
    t.sb.setFaults({ latencyMs: 150 });
    const child = t.spawnSct(['origins', 'import', '--file', file, '--concurrency', '2']);
    await until(() => posts().length >= 2, 'the first rows to be created');
    child.kill('SIGINT');
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(String(r.stderr)).toMatch(/origins: \d+ created, 0 rejected, \d+ not sent/);
    expect(String(r.stderr)).toMatch(/error: interrupted: \d+ origins? (not sent|without an answer)/);
    expect(String(r.stderr)).toContain('to continue, rerun: sct ');
    // Let the requests that were in flight at Ctrl-C reach the sandbox before the rerun.
    t.sb.setFaults({});
    await new Promise((res) => setTimeout(res, 300));
    const firstRun = posts().length;
    expect(firstRun).toBeLessThan(8);

    const again = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    const statuses = (JSON.parse(again.stdout) as Array<{ status: string }>).map((x) => x.status);
    expect(statuses.filter((s) => s === 'skipped').length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 'skipped' || s === 'created')).toBe(true);
    const found = await originsWith(ids);
    expect(found.map((o) => o.external_id).sort()).toEqual([...ids].sort());
  });

  it('on a terminal, says what it will send, and on Ctrl-C reports what was done', async () => {
    const file = csvFile(rows(6));
    t.sb.setFaults({ latencyMs: 60 });
    const ctl = new AbortController();
    const running = t.sctIn(['origins', 'import', '--file', file, '--concurrency', '1'], { tty: true, signal: ctl.signal });
    await until(() => posts().length >= 2, 'two rows to be created');
    ctl.abort();
    const r = await running;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toContain('6 origins to send: 6 requests, 1 at a time');
    expect(r.stderr).toMatch(/origins: [2-5] created, 0 rejected, [1-4] not sent/);
    // Every row that reached the sandbox is reported created: Ctrl-C let it finish.
    expect(Number(/origins: (\d) created/.exec(r.stderr)![1])).toBe(posts().length);
    expect(r.stderr).toMatch(/error: interrupted: [1-4] origins? not sent/);
    expect(r.stdout).toMatch(/^LINE\s+KEY\s+STATUS\s+ID\s+ERROR$/m);
    expect(r.stdout).toMatch(/not_sent/);
  });

  it('warns when the rate limit will not cover the run, and stops with exit 1 rather than wait an hour', async () => {
    // 4: one GET /accounts/me, then three POSTs.
    const small = await startSandbox({ port: 0, rateLimit: 4 });
    try {
      const r = await sctFor(small.url, OWNER, t.dir)(['origins', 'import', '--file', csvFile(rows(5)), '--concurrency', '1', '--max-wait', '2s']);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toContain('warning: 4 more requests to send but the rate limit has 2 left this hour');
      expect(r.stderr).toContain('origins: 3 created, 0 rejected, 2 not sent');
      expect(r.stderr).toContain('error: rate limit exhausted');
      expect(r.stderr).toContain('to continue, rerun: sct ');
      expect(small.requests.filter((x) => x.method === 'POST')).toHaveLength(3);
    } finally {
      await small.close();
    }
  });

  it('resumes rows without external_id by content after the file is edited', async () => {
    const file = csvFile('name,country_code\nLoose A,CI\nLoose B,CI\n');
    expect((await t.sct(['origins', 'import', '--file', file])).exitCode).toBe(0);
    // The user removes the first row and adds one: only the new row is sent.
    writeFileSync(file, `name,country_code\nLoose B,CI\nLoose C,CI\n`);
    t.sb.requests.length = 0;
    const r = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts().map((p) => JSON.parse(p.body).name)).toEqual(['Loose C']);
    expect((JSON.parse(r.stdout) as Array<{ key: string; status: string }>).map((x) => [x.key, x.status])).toEqual([
      ['line 2', 'skipped'],
      ['line 3', 'created'],
    ]);
  });

  it('sends every row again with --fresh, under new idempotency keys', async () => {
    const file = csvFile(rows(1));
    expect((await t.sct(['origins', 'import', '--file', file])).exitCode).toBe(0);
    const first = posts()[0].headers['idempotency-key'];
    const r = await t.sct(['origins', 'import', '--file', file, '--fresh']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(posts()).toHaveLength(2);
    expect(posts()[1].headers['idempotency-key']).not.toBe(first);
    expect(existsSync(join(t.dir, 'journals'))).toBe(true);
  });

  it('a quote-free file (each origin kept as its line, its body made again) sends what the same file with quotes sends', async () => {
    // Semicolons and decimal commas, an alias, a guarded formula-like name, a row without an
    // external_id twice (its key by content), a description with spaces around it.
    const plain = [
      'name;country_code;external_id;lat;lng;description',
      "'=Ferme Kouassi;ci;Q-1;6,8203;-5,2897;  cocoa, 2 ha  ",
      'Loose;CI;;7,1;-5,1;',
      'Loose;CI;;7,1;-5,1;',
      'Ferme Yao;GH;Q-2;6,25;-1,5;organic',
    ];
    // Spaces outside quotes are no part of a cell, in either reader; inside quotes they are.
    const quoted = plain.map((line) => line.split(';').map((c) => ` "${c.trim()}" `).join(';'));
    const run = async (lines: string[], name: string) => {
      const file = t.writeFile(name, lines.join('\n') + '\n');
      const dry = await t.sct(['origins', 'import', '--file', file, '--dry-run', '-o', 'json']);
      expect(dry.exitCode, dry.stderr).toBe(0);
      t.sb.requests.length = 0;
      const real = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
      expect(real.exitCode, real.stderr).toBe(0);
      return { dry: JSON.parse(dry.stdout), sent: posts().map((p) => JSON.parse(p.body)), keys: (JSON.parse(real.stdout) as Array<{ key: string }>).map((x) => x.key) };
    };
    const a = await run(plain, 'plain.csv');
    const b = await run(quoted, 'quoted.csv');
    expect(a.dry).toEqual(b.dry);
    expect(a.sent).toEqual(b.sent);
    expect(a.keys).toEqual(b.keys);
    expect(a.sent[0]).toMatchObject({ name: '=Ferme Kouassi', country_code: 'CI', external_id: 'Q-1', location: { type: 'Point', coordinates: [-5.2897, 6.8203] } });
  });

  it('--skip-invalid with --dry-run: the valid rows as requests (their file read a second time), the invalid ones said', async () => {
    const file = csvFile('name,country_code,external_id\nGood A,CI,S-1\nBad,XX,S-2\nGood B,CI,S-3\nDup,CI,S-1\n');
    const r = await t.sct(['origins', 'import', '--file', file, '--dry-run', '--skip-invalid', '-o', 'json']);
    // As the real run will end: rows left out are exit 3 (nothing was sent).
    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toContain('2 invalid rows left out (--skip-invalid); nothing sent (dry run)');
    expect(r.stderr).toMatch(/2 invalid rows left out \(--skip-invalid\): 3, 5/);
    // Without a report, stderr is the one place that says why each was left out.
    expect(r.stderr).toMatch(/\n  line 3, country_code: [^\n]*XX/);
    expect(r.stderr).toMatch(/\n  line 5, external_id: [^\n]*line 2/);
    expect((JSON.parse(r.stdout) as Array<{ body: { external_id: string } }>).map((x) => x.body.external_id)).toEqual(['S-1', 'S-3']);
    expect(r.stderr).toContain('2 valid origins in 2 requests; nothing sent (dry run)');
  });
});

describe('the journal of a rerun', () => {
  it('a row whose key differs only in a lone surrogate from one done is not taken for it (UTF-8 makes both U+FFFD)', async () => {
    const prefix = `SUR${Date.now()}`;
    const file = csvFile(`name,country_code,external_id\nFarm one,CI,${prefix}-ok\n`, 'surrogates.csv');
    const first = await t.sct(['origins', 'import', '--file', file]);
    expect(first.exitCode, first.stderr).toBe(0);
    // What a run of a workbook whose cell held a lone surrogate leaves on record (a CSV file read
    // as UTF-8 cannot hold one): that row done, under its own key.
    const { readdirSync, appendFileSync } = await import('node:fs');
    const dir = join(t.dir, 'journals');
    const journal = join(dir, readdirSync(dir).find((n) => n.startsWith('origins-import') && n.endsWith('.ndjson'))!);
    appendFileSync(journal, `{"key":"ext:${prefix}-\\ud800","status":"done","id":999,"at":"2026-11-27T00:00:00.000Z"}\n`);
    writeFileSync(file, `name,country_code,external_id\nFarm one,CI,${prefix}-ok\nFarm two,CI,${prefix}-\ufffd\n`);
    const before = posts().length;
    const again = await t.sct(['origins', 'import', '--file', file, '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toContain('origins: 1 created, 1 skipped');
    const out = JSON.parse(again.stdout);
    const second = (out.results ?? out).find((o: { lines?: number[]; line?: number }) => (o.lines?.[0] ?? o.line) === 3);
    expect(second.status, again.stdout).toBe('created');
    expect(second.id).not.toBe(999);
    expect(posts().length - before).toBe(1);
  });
});
