// countries list/get: reference data. The document names no country filters beyond the search
// term, so there are no named filter flags: --search, and --filter for anything else.
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { UsageError } from '../errors.js';
import { LIST_OPTIONS, listQuery, runList } from './shared/list.js';
import { showOne } from './shared/crud.js';
import { defineLeaf, registerOf } from './shared/spec.js';

export const register = registerOf({
  name: 'countries',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List countries',
      prints: 'country',
      options: LIST_OPTIONS,
      examples: ['sct countries list', 'sct countries list --search land --json alpha_2,name'],
      run: (ctx, opts) => runList(ctx, { path: PATHS.countries, query: listQuery(opts), flags: opts, columns: COLUMNS.country, noun: 'countries' }),
    }),
    defineLeaf({
      name: 'get',
      summary: 'Show one country',
      prints: 'country',
      args: [{ name: '<id>', description: 'country id (e.g. the 2-letter code CI)' }],
      examples: ['sct countries get CI', 'sct countries get BE --json'],
      run: (ctx, _o, [id]) => showOne(ctx, PATHS.country(countryId(id)), COLUMNS.country).then(() => undefined),
    }),
  ],
});

/** The document does not say what a country id looks like: any word, but never a path. */
export function countryId(value: string): string {
  const v = value.trim();
  if (!/^[A-Za-z0-9_-]+$/.test(v)) throw new UsageError(`invalid country id "${value}": expected e.g. CI`);
  return v;
}
