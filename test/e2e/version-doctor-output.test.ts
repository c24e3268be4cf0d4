// `version` and `doctor` print through the output path every command uses, so --jq, --columns,
// --json FIELDS and -o ndjson mean for them what they mean elsewhere (they used to write JSON by
// hand and ignored the flags).
import { describe, it, expect } from 'vitest';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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
  it('its verdicts on set-ups: a CA file Node cannot load fails, a config directory others may write fails, a stricter file mode is fine, NO_PROXY only when set', async () => {
    const pem = readFileSync(join(__dirname, '..', 'fixtures', 'tls', 'cert.pem'), 'utf8');
    const lines = pem.split('\n');
    lines[2] = 'X'.repeat(lines[2]!.length);
    const damaged = t.writeFile('bad-ca.pem', lines.join('\n'));
    const good = t.writeFile('ca.pem', pem);
    const r = await t.sct(['doctor'], { env: { NODE_EXTRA_CA_CERTS: damaged, HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9' } });
    expect(r.stdout).toMatch(/^fail\s+ca\s+NODE_EXTRA_CA_CERTS=.*bad-ca\.pem: certificate 1 of 1 does not load \(.*\); Node ignores the file$/m);
    expect(r.stdout).toMatch(/^ok\s+proxy\s+a proxy is configured in the environment: the base URL is reached directly/m);
    expect((await t.sct(['doctor'], { env: { NODE_EXTRA_CA_CERTS: good } })).stdout).toMatch(/^ok\s+ca\s+NODE_EXTRA_CA_CERTS=.*ca\.pem \(1 certificate\)$/m);
    expect((await t.sct(['config', 'set', 'output', 'table'])).exitCode).toBe(0);
    chmodSync(join(t.dir, 'config.json'), 0o400);
    chmodSync(t.dir, 0o777);
    try {
      const modes = await t.sct(['doctor']);
      expect(modes.stdout).toMatch(/^fail\s+config_dir\s+.* is writable by other users, who could replace the config file/m);
      expect(modes.stdout).toMatch(/^ok\s+config\s+.*config\.json \(mode 400: sct cannot write it/m);
    } finally {
      chmodSync(t.dir, 0o700);
      chmodSync(join(t.dir, 'config.json'), 0o600);
    }
  });

  it('a service that fails (503) fails the base_url line, not the token; a refused token still gives the clock', async () => {
    t.sb.setFaults({ failureRate: 1 });
    const down = await t.sct(['doctor'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(down.stdout).toMatch(/^fail\s+base_url\s+.* answers, but fails \(Service temporarily unavailable/m);
    expect(down.stdout).toMatch(/^warn\s+token\s+.*not verified/m);
    const refused = await t.sct(['doctor'], { env: { SCT_TOKEN: 'sct_not_a_token' } });
    expect(refused.stdout).toMatch(/^fail\s+token\s/m);
    expect(refused.stdout).toMatch(/^ok\s+clock\s+local clock is \d+s /m);
  });

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
