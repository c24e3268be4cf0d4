// Every example of every command's help runs here, against the sandbox's demo data: the list is
// the one help and the manual print (examplesOf, src/help/examples.ts), so a new example is run
// the day it is written. An example passes when each sct command in it exits 0; a usage error
// (exit 2) or data the demo does not have (a 404, a 400) fails it.
//
// How a line is run — the rules an example must fit:
// - It is read as the shell reads it (shell-quote): `a && b` runs b when a succeeded, `< file`
//   is stdin, `> file` writes stdout to the file (whose directory must exist, as in the user's
//   shell: `mkdir -p DIR` is run), `| cmd` hands stdout to a program that is not sct: that program is not run, but sct's
//   output must not be empty. A command other than sct (curl) is not run either; `$(sct …)` in
//   it is, and is replaced by what it printed. `~` is HOME.
// - The user works in a directory of their own (this process's working directory and HOME),
//   where each file an example reads exists (FIXTURES: files the demo data fits), logged in as
//   Amélie Janssens (sct_demo_owner_cacao, owner of company 1) in the profiles default and
//   staging, the token kept in the config file. Nothing from SCT_TOKEN or SCT_BASE_URL.
// - http://127.0.0.1:8080/api, the address `sct sandbox --port 8080` listens on, is the test
//   sandbox's address; `sct sandbox` itself runs on a free port (`--port 8080` becomes
//   `--port 0`: 8080 may be taken where tests run) until it prints its URL, then is stopped as
//   Ctrl-C stops it.
// - At a terminal: stdin and stderr are one (unless stdin is redirected), stdout too unless
//   redirected or piped, and every question is answered yes (a confirmation), the first choice
//   (a picker) or the profile's token (a password).
// - An example that sent anything but a GET leaves a fresh sandbox (same port) and a fresh
//   directory to the next, so each one finds the demo data as `sct sandbox` starts with it. Only
//   the sandbox's statement delay is shorter (200 ms, not 2 s), so `--wait` waits less.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, type ParseEntry } from 'shell-quote';
import type { Command } from 'commander';
import { fullProgram, main } from '../../src/cli.js';
import { examplesOf } from '../../src/help/examples.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import type { Prompter } from '../../src/prompt.js';
import { createTestIO } from '../helpers/io.js';
import { OWNER } from '../sandbox/helpers.js';
import { removeDir, tempDir } from '../helpers/sct.js';

/** The sandbox's address in examples: `sct sandbox --port 8080`'s. */
const EXAMPLE_URL = 'http://127.0.0.1:8080/api';

const ring = (lon: number, lat: number, d = 0.0018) =>
  [
    [lon, lat],
    [lon + d, lat],
    [lon + d, lat + d],
    [lon, lat + d],
    [lon, lat],
  ].map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))]);
const plots = (features: Array<{ name: string; id: string; lon: number; lat: number }>) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: features.map((f) => ({
      type: 'Feature',
      id: f.id,
      properties: { name: f.name },
      geometry: { type: 'Polygon', coordinates: [ring(f.lon, f.lat)] },
    })),
  });

/** The files examples read, by the name they give: contents that the demo data fits. */
const FIXTURES: Record<string, string | Buffer> = {
  'token.txt': `${OWNER}\n`,
  'name.txt': 'North plot',
  // Orders company 1 buys, and its value chains.
  'requests.csv': 'order_id,value_chain_id\n217,\n195,3\n',
  'people.csv': 'email,auth_group\nana.peeters@example.com,member\nkoen.maes@example.com,admin\n',
  'purchases.csv':
    'external_id,type,order_created_at,buyer_external_id,product,volume,unit,line_number\nPO-EX-0001,order,2026-03-01,,17,1250.5,kg,1\nPO-EX-0001,order,2026-03-01,,17,300,kg,2\nPO-EX-0002,order,2026-03-02,,17,80,kg,1\n',
  'erp-purchases.csv': 'external_id,type,order_created_at,product,volume,unit,line_number\nPO-EX-0101,order,2026-03-01,17,500,kg,1\n',
  'order.json': JSON.stringify({ type: 'order', external_id: 'PO-EX-0201', order_created_at: '2026-03-01', items: [{ product: 17, volume: 40, unit: 'kg' }] }),
  'product.json': JSON.stringify({ name: 'Cocoa nibs', commodity: 'cocoa', external_id: 'BCC-P09002' }),
  'partner.json': JSON.stringify({ company_name: 'Abidjan Cocoa Export SA', country_code: 'CI', external_id: 'VC-1-0901' }),
  // Statements and orders of company 1.
  'pairs.csv': 'dds_id,order_id\n5,17\n5,18\n',
  'origins.csv': 'name,country_code,external_id,latitude,longitude\nFarm Yao 3 (Soubré),CI,OR-EX-0001,5.785000,-6.606000\nFarm Mensah 8 (Kumasi),GH,OR-EX-0002,6.688000,-1.624000\n',
  'plots.geojson': plots([
    { name: 'Farm Kouassi 14 (Daloa)', id: 'OR-EX-0011', lon: -6.45, lat: 6.877 },
    { name: 'Farm Kouassi 15 (Daloa)', id: 'OR-EX-0012', lon: -6.44, lat: 6.887 },
  ]),
  'survey.geojson': plots([{ name: 'Plot 3 (Ashanti)', id: 'GH-3', lon: -1.624, lat: 6.688 }]),
  'plot7.geojson': plots([{ name: 'Plot 7', id: 'GH-7', lon: -1.604, lat: 6.698 }]),
  'certificates/fsc-2025.pdf': Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
};

interface Run {
  argv: string[];
  stdin?: string;
  stdout?: string;
  piped: boolean;
}

const RUN_ENV = (home: string) => ({ PATH: process.env.PATH ?? '', HOME: home, SCT_CONFIG_DIR: join(home, '.config', 'sct'), NO_COLOR: '1' });

/** The user at a terminal, saying yes to everything. */
const prompter: Prompter = {
  password: async () => OWNER,
  input: async () => '',
  confirm: async () => true,
  select: async (_m, choices) => choices[0].value,
};

/** One sct run in this process, as the user's shell would start it. */
async function sct(r: Run, home: string, signal?: AbortSignal, onStart?: (stdout: () => string) => void) {
  const io = createTestIO({
    stdinIsTTY: r.stdin === undefined,
    stderrIsTTY: true,
    stdoutIsTTY: r.stdout === undefined && !r.piped,
    columns: 120,
    input: r.stdin,
  });
  onStart?.(io.stdout);
  const timeout = AbortSignal.timeout(60_000);
  try {
    const code = await main(r.argv.slice(1), { streams: io.streams, env: RUN_ENV(home), prompter, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    return { code, stdout: io.stdout(), stderr: io.stderr() };
  } finally {
    process.exitCode = undefined;
  }
}

/** A line's commands, split at `&&`; each with its redirections and whether it is piped on. */
function commandsOf(line: string, home: string): Run[] {
  const runs: Run[] = [];
  let cur: Run = { argv: [], piped: false };
  let skip = false;
  const words = parse(line, (name) => `$${name}`) as ParseEntry[];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (typeof w === 'object' && 'op' in w) {
      if (w.op === '&&') {
        runs.push(cur);
        cur = { argv: [], piped: false };
        skip = false;
      } else if (w.op === '|') {
        cur.piped = true;
        skip = true;
      } else if (w.op === '<' || w.op === '>') {
        const file = String(words[++i]).replace(/^~(?=\/)/, home);
        if (!skip) cur[w.op === '<' ? 'stdin' : 'stdout'] = file;
      } else throw new Error(`${line}: the shell operator ${w.op} has no rule in this test`);
    } else if (!skip) cur.argv.push(String(w).replace(/^~(?=\/)/, home));
  }
  runs.push(cur);
  return runs;
}

/** Every leaf command's examples, in help order. */
function examplesIn(cmd: Command, path: string[] = []): Array<{ command: string; example: string }> {
  if (cmd.commands.length === 0) return examplesOf(cmd).map((example) => ({ command: path.join(' '), example }));
  return cmd.commands.flatMap((c) => examplesIn(c, [...path, c.name()]));
}

const program = await fullProgram(createTestIO().io);
const EXAMPLES = examplesIn(program);

let sandbox: Sandbox;
let port: number;
/** A logged-in user's directory, copied for each example. */
let template: string;
let home: string;
const cwd = process.cwd();

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, statementDelayMs: 200 });
  port = sandbox.port;
  template = tempDir('sct-examples-');
  for (const profile of ['default', 'staging']) {
    const r = await sct({ argv: ['sct', 'auth', 'login', '--profile', profile, '--base-url', sandbox.url, '--with-token', '--insecure-storage'], stdin: OWNER, piped: false }, template);
    expect(r.code, r.stderr).toBe(0);
  }
  for (const [name, content] of Object.entries(FIXTURES)) {
    mkdirSync(dirname(join(template, name)), { recursive: true });
    writeFileSync(join(template, name), content);
  }
});

afterAll(async () => {
  process.chdir(cwd);
  await sandbox?.close();
  if (template) removeDir(template);
  if (home) removeDir(home);
});

async function freshDir(): Promise<void> {
  process.chdir(cwd);
  if (home) removeDir(home);
  home = tempDir('sct-example-');
  cpSync(template, home, { recursive: true });
  process.chdir(home);
}

async function runExample(example: string): Promise<void> {
  // $(sct …) first: its output is a word of the command around it.
  let line = example.replaceAll(EXAMPLE_URL, sandbox.url);
  let ran = 0;
  for (const m of example.matchAll(/\$\((sct [^)]*)\)/g)) {
    ran++;
    const [inner] = commandsOf(m[1], home);
    const r = await sct(inner, home);
    expect(r.code, `${m[1]}\n${r.stderr}`).toBe(0);
    line = line.replace(m[0], r.stdout.trim());
  }
  for (const run of commandsOf(line, home)) {
    // `mkdir -p DIR` runs, as the user's shell runs it: a `> file` into a directory that does not
    // exist fails in their shell, and here.
    if (run.argv[0] === 'mkdir' && run.argv[1] === '-p') {
      for (const dir of run.argv.slice(2)) mkdirSync(dir, { recursive: true });
      continue;
    }
    if (run.argv[0] !== 'sct') continue;
    ran++;
    if (run.argv[1] === 'sandbox') {
      await runSandboxCommand(run);
      continue;
    }
    if (run.stdin) run.stdin = readFileSync(join(home, run.stdin), 'utf8');
    const r = await sct(run, home);
    expect(r.code, `${run.argv.join(' ')}\n${r.stderr}`).toBe(0);
    if (run.stdout) {
      expect(existsSync(dirname(run.stdout)), `${example}: > ${run.stdout}, whose directory does not exist (the shell would fail)`).toBe(true);
      writeFileSync(run.stdout, r.stdout);
    }
    if (run.piped) expect(r.stdout.trim(), `${run.argv.join(' ')} | …: nothing to pipe`).not.toBe('');
  }
  expect(ran, `${example}: no sct command in it`).toBeGreaterThan(0);
}

/** `sct sandbox` runs until it prints its URL, then Ctrl-C. */
async function runSandboxCommand(run: Run): Promise<void> {
  const argv = run.argv.map((a, i) => (run.argv[i - 1] === '--port' ? '0' : a));
  const stop = new AbortController();
  let out: () => string = () => '';
  const done = sct({ ...run, argv }, home, stop.signal, (stdout) => (out = stdout));
  for (let waited = 0; !/^http:\/\/127\.0\.0\.1:\d+\/api$/m.test(out()) && waited < 30_000; waited += 25) await new Promise((r) => setTimeout(r, 25));
  stop.abort();
  const r = await done;
  expect(out(), r.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/m);
  expect([0, 130], r.stderr).toContain(r.code);
}

describe('help examples', () => {
  it('collects the examples of the whole tree', () => {
    expect(EXAMPLES.length).toBeGreaterThan(150);
  });

  // Each runs on a sandbox of its own here; someone trying them in the manual's order runs them
  // on one: what an example deletes is what no other example (nor a file they read) names.
  it('an id an example deletes is one no other example, nor a file examples read, uses', () => {
    const deleted = EXAMPLES.flatMap(({ example }) => [...example.matchAll(/\bsct ([a-z-]+) delete (\d+)\b/g)].map((m) => ({ noun: m[1]!, id: m[2]! })));
    expect(deleted.length).toBeGreaterThan(3);
    for (const { noun, id } of deleted) {
      // The same kind of object: its own commands, another's flag or column named for it (--to-origin, value_chain_id).
      const kind = new RegExp(`\\bsct ${noun} |${noun.replace(/s$/, '').replace('-', '[-_]')}`);
      const word = new RegExp(`(^|[\\s,=])${id}(?=$|[\\s,])`, 'm');
      const others = EXAMPLES.filter(({ example }) => !example.includes(`${noun} delete ${id}`) && kind.test(example) && word.test(example));
      expect(others.map((o) => o.example), `${noun} ${id}`).toEqual([]);
      const files = Object.entries(FIXTURES).filter(([, text]) => typeof text === 'string' && kind.test(text) && new RegExp(`(^|,)${id}(,|$)`, 'm').test(text));
      expect(files.map(([name]) => name), `${noun} ${id}`).toEqual([]);
    }
  });

  for (const { command, example } of EXAMPLES) {
    it(`${command}: ${example}`, async () => {
      await freshDir();
      try {
        await runExample(example);
      } finally {
        if (sandbox.requests.some((r) => r.method !== 'GET')) {
          await sandbox.close();
          sandbox = await startSandbox({ port, statementDelayMs: 200 });
        }
        sandbox.requests.length = 0;
      }
    });
  }
});
