// countries list/get: reference data. The document names no country filters beyond the search
// term, so there are no named filter flags: --search, and --filter for anything else.
import type { Command } from 'commander';
import { addExamples, type Factory } from './shared/command.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { UsageError } from '../errors.js';
import { addListOptions, listQuery, runList, type ListFlags } from './shared/list.js';
import { showOne } from './shared/crud.js';
import { prints } from './shared/output-facts.js';

export function register(program: Command, f: Factory): void {
  const countries = program.command('countries').description('Country reference data');
  addExamples(
    addListOptions(prints(countries.command('list'), 'country').description('List countries')),
    ['sct countries list', 'sct countries list --search land --json alpha_2,name'],
  ).action(
    f.action<ListFlags>((ctx, opts) => runList(ctx, { path: PATHS.countries, query: listQuery(opts), flags: opts, columns: COLUMNS.country, noun: 'countries' })),
  );
  addExamples(
    prints(countries.command('get'), 'country')
    .argument('<id>', 'country id (e.g. the 2-letter code CI)')
    .description('Show one country'),
    ['sct countries get CI', 'sct countries get BE --json'],
  ).action(f.action((ctx, _o, [id]) => showOne(ctx, PATHS.country(countryId(id)), COLUMNS.country).then(() => undefined)));
}

/** The document does not say what a country id looks like: any word, but never a path. */
export function countryId(value: string): string {
  const v = value.trim();
  if (!/^[A-Za-z0-9_-]+$/.test(v)) throw new UsageError(`invalid country id "${value}": expected e.g. CI`);
  return v;
}
