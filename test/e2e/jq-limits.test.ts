// --jq over a JSON too large for jq here (jq-web: WebAssembly of at most 4 GB holding the whole
// document, its output gathered a character at a time in a JavaScript array, which V8 cannot
// grow past ~134 M elements and then ends the process with a native crash). The built sct
// against a server on 127.0.0.1 answering a list of 140 MB.
import { describe, expect, it } from 'vitest';
import { runSct } from '../helpers/sct.js';
import { useLocalServer, useServerEnv } from '../helpers/local-server.js';

const item = JSON.stringify({ id: 1, note: 'y'.repeat(1000) });
let big: Buffer | undefined;
let wide: Buffer | undefined;
const server = useLocalServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  if (req.url?.startsWith('/api/big')) res.end((big ??= Buffer.from(`[${Array(140_000).fill(item).join(',')}]`)));
  // 42 million characters, 126 MB of UTF-8.
  else if (req.url?.startsWith('/api/wide')) res.end((wide ??= Buffer.from(`[${Array(1200).fill(JSON.stringify('中'.repeat(35_000))).join(',')}]`)));
  else res.end(`[${Array(100).fill(item).join(',')}]`);
});
const run = useServerEnv(server);

describe('--jq and the size of the JSON', () => {
  it('a JSON over 100 MB is refused at once with the way round it, never a crash of Node', { timeout: 60_000 }, async () => {
    const r = await runSct(['api', '/big', '--jq', '.[]'], { env: run.env(), timeout: 55_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/error: --jq: the JSON is 14\d MB, more than the 100 MB jq takes here/);
    expect(r.stderr).toContain('hint: write it one object a line (-o ndjson) and give that to jq');
    expect(r.stderr).not.toContain('Fatal');
    expect(r.stdout).toBe('');
  });

  it('the size is counted in bytes: 42 million characters of Chinese text are 126 MB', { timeout: 60_000 }, async () => {
    const r = await runSct(['api', '/wide', '--jq', '.[]'], { env: run.env(), timeout: 55_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr).toContain('error: --jq: the JSON is 126 MB, more than the 100 MB jq takes here');
  });

  it("jq's memory running out is said once, as sct's error: no stray line of its WebAssembly before it", { timeout: 60_000 }, async () => {
    const r = await runSct(['api', '/small', '--jq', 'reduce range(40) as $i ("x"; . + .) | length'], { env: run.env(), timeout: 55_000 });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: --jq: cannot allocate memory');
    expect(r.stderr).not.toContain('Aborted()');
  });

  it("jq's debug and stderr lines reach stderr as jq writes them", async () => {
    const r = await runSct(['api', '/small', '--jq', '.[0].id | debug | "x" | stderr | 2'], { env: run.env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('2\n');
    expect(r.stderr).toBe('["DEBUG:",1]\nx\n');
  });

  it("what the expression wrote before its error is written as it came, and the error is jq's alone", async () => {
    const r = await runSct(['api', '/small', '--jq', '.[0].id | debug | "RED\\n2nd" | stderr | error("boom")'], { env: run.env() });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.split('\n').slice(0, 4)).toEqual(['["DEBUG:",1]', 'RED', '2nd', 'error: --jq: (at <stdin>:0): boom']);
  });

  it("an error whose own text says 'jq: error' is jq's message whole", async () => {
    const r = await runSct(['api', '/small', '--jq', '"q" | stderr | error("see jq: error here")'], { env: run.env() });
    expect(r.exitCode, r.stderr).toBe(1);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual(['q', 'error: --jq: (at <stdin>:0): see jq: error here']);
  });

  it("debug and stderr lines that say jq's own words before the error are written whole; the error is the last one's", async () => {
    const debug = await runSct(['api', '/small', '--jq', 'debug("jq: error (at inputString:0): fake") | error("real")'], { env: run.env() });
    expect(debug.exitCode).toBe(1);
    expect(debug.stderr.split('\n').slice(0, 2)).toEqual(['["DEBUG:","jq: error (at inputString:0): fake"]', 'error: --jq: (at <stdin>:0): real']);
    const stderr = await runSct(['api', '/small', '--jq', '("jq: error (at inputString:0): fake\\n" | stderr) | error("real")'], { env: run.env() });
    expect(stderr.exitCode).toBe(1);
    expect(stderr.stderr.split('\n').slice(0, 2)).toEqual(['jq: error (at inputString:0): fake', 'error: --jq: (at <stdin>:0): real']);
  });

  it("an error's own later lines keep their words, 'jq: error:' too", async () => {
    const r = await runSct(['api', '/small', '--jq', 'error("a\\njq: error: b")'], { env: run.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('error: --jq: (at <stdin>:0): a; jq: error: b');
  });

  it('a JSON under it is filtered as before', async () => {
    const r = await runSct(['api', '/small', '--jq', '.[0].id'], { env: run.env() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('1\n');
  });
});
