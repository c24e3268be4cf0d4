// `version` and `doctor` print through the output path every command uses, so --jq, --columns,
// --json FIELDS and -o ndjson mean for them what they mean elsewhere (they used to write JSON by
// hand and ignored the flags).
import { describe, it, expect } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { VERSION } from '../../src/version.js';

const t = useSandbox({}, { inProcess: true });

describe('version', () => {
  it('--jq .node prints the Node version alone', async () => {
    const r = await t.sct(['version', '--jq', '.node']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${process.versions.node}\n`);
  });

  it('--columns picks fields: as a key/value table, and in json', async () => {
    const table = await t.sct(['version', '--columns', 'version,node']);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^VERSION\\s+${VERSION.replace(/\./g, '\\.')}\\nNODE\\s+${process.versions.node.replace(/\./g, '\\.')}\\n$`));
    const json = await t.sct(['version', '--json', 'node']);
    expect(JSON.parse(json.stdout)).toEqual({ node: process.versions.node });
  });

  it('without flags prints the one line, and --json the four fields', async () => {
    expect((await t.sct(['version'])).stdout).toBe(`sct ${VERSION} (node ${process.versions.node}; ${process.platform} ${process.arch})\n`);
    expect(JSON.parse((await t.sct(['version', '--json'])).stdout)).toEqual({ version: VERSION, node: process.versions.node, platform: process.platform, arch: process.arch });
  });
});

describe('doctor', () => {
  it('--jq filters the checks', async () => {
    const r = await t.sct(['doctor', '--jq', '.[] | select(.name == "token") | .level']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('ok\n');
  });

  it('--columns picks fields of each check; -o ndjson is one check per line', async () => {
    const csv = await t.sct(['doctor', '-o', 'csv', '--columns', 'name,level']);
    expect(csv.stdout.split('\n').slice(0, 2)).toEqual(['name,level', 'node,ok']);
    const nd = await t.sct(['doctor', '-o', 'ndjson']);
    const lines = nd.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines[0]).toMatchObject({ name: 'node', level: 'ok' });
  });

  it('a failed check is still exit 1 after the filtered output', async () => {
    const r = await t.sct(['doctor', '--jq', '[.[] | select(.level == "fail") | .name]', '-o', 'json'], { env: { SCT_TOKEN: undefined } });
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toContain('token');
  });
});
