// `sct help environment` says it lists every variable sct reads: each name the source reads from
// the environment is in it, but for those that only locate the platform's own places.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentText } from '../../src/help/environment.js';

/** Where a platform keeps things (Windows folders, the D-Bus session, the search path), and a benchmark switch. */
const NOT_SETTINGS = new Set(['APPDATA', 'LOCALAPPDATA', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'PATH', 'PATHEXT', 'LV', 'SCT_SYNC_PROFILE']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('sct help environment', () => {
  it('names every variable the source reads', () => {
    const read = new Set<string>();
    for (const file of sources(join(__dirname, '../../src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/env(?:\.|\[')([A-Z][A-Z0-9_]+)/g)) read.add(m[1]);
    }
    expect(read.size).toBeGreaterThan(15);
    const text = environmentText();
    expect([...read].filter((v) => !NOT_SETTINGS.has(v) && !text.includes(v)).sort()).toEqual([]);
  });
});
