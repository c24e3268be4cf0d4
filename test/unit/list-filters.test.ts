// The list filter tables (src/api/filters/): a named flag stands for keys the documents name, so
// `sct help filters` and the --filter warning never contradict the flags.
import { describe, expect, it } from 'vitest';
import { LIST_FILTERS } from '../../src/api/filters/index.js';
import { keysSentBy } from '../../src/api/filters/keys.js';

describe('list filter tables', () => {
  it.each(LIST_FILTERS.map((t) => [t.noun, t] as const))('%s list: every named flag sends documented keys', (_noun, table) => {
    const undocumented = table.named.flatMap((f) => keysSentBy(f).filter((k) => !table.keys.includes(k)).map((k) => `${f.flag}: ${k}`));
    expect(undocumented).toEqual([]);
  });

  it('a command has one table and a table names each key once', () => {
    expect(new Set(LIST_FILTERS.map((t) => t.command ?? `${t.noun} list`)).size).toBe(LIST_FILTERS.length);
    for (const t of LIST_FILTERS) expect(t.keys.filter((k, i) => t.keys.indexOf(k) !== i), t.noun).toEqual([]);
  });
});
