// The flags every list command takes, the filters several of them share, and the one loop that
// pages through a list and streams it to the formatter.
import { singular } from '../../util/format.js';
import type { Context } from '../../context.js';
import type { Column } from '../../output/columns.js';
import { createListWriter } from '../../output/format.js';
import { DEFAULT_LIMIT, DEFAULT_PAGE_SIZE, StuckPaginationError, type PageOptions } from '../../api/pagination.js';
import { UsageError } from '../../errors.js';
import { COUNTRY_CODE_RE } from '../../api/enums.js';
import { unknownCountryProblem } from '../../geo/country-codes.js';
import { collect, IN_FLIGHT_HELP, parseInteger, parseParallel, splitKeyValue, textValue } from './flags.js';
import type { OptionSpec, OptionsOf } from './options.js';

/** --parallel's help, the same for --all and sync's reads. */
const PARALLEL_HELP = `with --all: pages requested at the same time when the service pages by offset (${IN_FLIGHT_HELP})`;

/** The options every list takes, after its own (its filters and flags). */
export const LIST_OPTIONS = [
  { flags: '--limit <n>', description: `how many items to return in total (default ${DEFAULT_LIMIT})` },
  { flags: '--page-size <n>', description: `items per request (default ${DEFAULT_PAGE_SIZE}, never more than --limit; with --all the server maximum)` },
  { flags: '--offset <n>', description: 'skip this many items first' },
  { flags: '--all', description: 'fetch every page (streams as pages arrive)' },
  { flags: '--parallel <n>', description: PARALLEL_HELP },
  { flags: '--ordering <fields>', description: 'sort fields, comma-separated; prefix - for descending (e.g. -created_at,id)' },
  { flags: '--search <text>', description: 'free-text search' },
  { flags: '--filter <key=value>', description: 'a query filter, passed through (repeatable for different keys; a key twice only where it repeats: see sct help filters)', parse: collect },
] as const satisfies readonly OptionSpec[];

export type ListFlags = OptionsOf<typeof LIST_OPTIONS>;

export function pageOptions(flags: ListFlags): PageOptions {
  if (flags.all && flags.limit !== undefined) throw new UsageError('--all and --limit cannot be combined');
  // Pages in flight are those of --all: given alone, it would be taken and do nothing.
  if (flags.parallel !== undefined && !flags.all) throw new UsageError('--parallel goes with --all (the pages requested at the same time)');
  const limit = parseInteger(flags.limit, '--limit', 1);
  const pageSize = parseInteger(flags.pageSize, '--page-size', 1);
  const offset = parseInteger(flags.offset, '--offset', 0);
  const parallel = parseParallel(flags.parallel);
  return { limit, pageSize, offset, all: Boolean(flags.all), parallel };
}

/** Query parameters from --ordering, --search and --filter (named flags are added by the command). */
export function listQuery(flags: ListFlags): URLSearchParams {
  const q = new URLSearchParams();
  // `--ordering "$A,$B"` with both unset is no ordering either.
  const noOrdering = /^[\s,]*$/;
  if (flags.ordering !== undefined) q.set('ordering', textValue(flags.ordering, '--ordering', noOrdering));
  if (flags.search !== undefined) q.set('search', textValue(flags.search, '--search'));
  for (const pair of flags.filter ?? []) {
    const [k, v] = splitKeyValue(pair, '--filter');
    q.append(k, textValue(v, `--filter ${k}=`, k === 'ordering' ? noOrdering : undefined));
  }
  return q;
}

/**
 * A --filter pair the command would not send as given is a usage error, never dropped: `limit`
 * and `offset` are the paging flags', and a key a named flag also sets (`type` beside `--type`,
 * `order_action` beside `--buying`) has two values where the user meant one.
 */
export function checkFilterPairs(pairs: readonly string[] | undefined, sent: URLSearchParams): void {
  const given = new Map<string, string[]>();
  for (const pair of pairs ?? []) {
    const [k, v] = splitKeyValue(pair, '--filter');
    given.set(k, [...(given.get(k) ?? []), v]);
  }
  for (const [k, values] of given) {
    if (k === 'limit' || k === 'offset') throw new UsageError(`--filter ${k}: sct pages the list itself; use --${k}${k === 'limit' ? ' (or --page-size)' : ''}`);
    // Replaced by a flag's value, or sent beside one (--search beside --filter search=…). A value
    // sct respelt (a role name, `admin` sent as the service spells it, ADMIN) is the same one.
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const others = sent.getAll(k).filter((x) => !values.some((y) => same(x, y)));
    const v = values.find((x) => !sent.getAll(k).some((y) => same(x, y))) ?? values[0];
    if (others.length > 0 || !sent.getAll(k).some((y) => same(y, v))) throw new UsageError(`--filter ${k}=${v}: the command's own flags set ${k} too (${others.join(', ')}); give it one way`);
  }
}

/**
 * One value as `field`, several as `field__in`: the API's two spellings of the same filter, in a
 * query or in a filter object of a request body (bulk revoke and renew take the same keys).
 */
export function setOneOrIn(query: URLSearchParams | Record<string, unknown>, field: string, values: ReadonlyArray<string | number> | undefined): void {
  if (!values || values.length === 0) return;
  const key = values.length > 1 ? `${field}__in` : field;
  if (query instanceof URLSearchParams) query.set(key, values.join(','));
  else query[key] = values.join(',');
}

/** Comma-separated 2-letter codes, upper-cased. */
export function parseCountryCodes(value: string | undefined, flag: string): string[] | undefined {
  if (value === undefined) return undefined;
  const codes = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (codes.length === 0) throw new UsageError(`${flag} needs at least one country code`);
  return codes.map((c) => parseCountryCode(c, flag));
}

/** One country code given as a flag, upper-cased; a code no country has is refused (a typo matches nothing). */
export function parseCountryCode(code: string, flag: string): string {
  if (!COUNTRY_CODE_RE.test(code)) throw new UsageError(`invalid ${flag} "${code}": expected a 2-letter country code (e.g. CI)`);
  const problem = unknownCountryProblem(code);
  if (problem) throw new UsageError(`invalid ${flag} "${code}": ${problem}`);
  return code.toUpperCase();
}

export interface RunListOptions {
  path: string;
  query: URLSearchParams;
  flags: ListFlags;
  columns: Column[];
  /** Noun for progress lines ("orders"). */
  noun: string;
  /** See PageOptions.unwrap: results that wrap the items. */
  unwrap?: PageOptions['unwrap'];
  /** Adds to each item before it is written (e.g. the `current` mark of workspaces); undefined leaves the item out. */
  map?: (item: Record<string, unknown>) => Record<string, unknown> | undefined;
  /** Runs before each page is written: for what its cells need fetched first (users' role names). */
  beforePage?: (items: Record<string, unknown>[]) => Promise<void>;
}

export async function runList(ctx: Context, o: RunListOptions): Promise<void> {
  checkFilterPairs(o.flags.filter, o.query);
  const paging = pageOptions(o.flags);
  const output = ctx.output(o.columns);
  const client = ctx.client();
  const writer = createListWriter(ctx.io, output);
  // Items the writer prints unchanged need not be parsed, unless something here reads them.
  const page = { ...paging, unwrap: o.unwrap, asJsonText: Boolean(writer.takesJsonText) && !o.map && !o.unwrap && !o.beforePage };
  let spinner = await ctx.spinner(`Fetching ${o.noun}…`);
  let announced = false;
  let total: number | undefined;
  let matching: number | null = null;
  const changes: ListChanges = { duplicates: 0, first: null, last: null };
  try {
    for await (const p of client.paginate(o.path, o.query, page)) {
      matching ??= p.count;
      noteChanges(changes, p);
      if (!announced && page.all && p.count !== null) {
        announced = true;
        spinner.stop();
        total = p.count - (page.offset ?? 0);
        announceLongRun(ctx, total, p.results.length, o.noun);
        // An export into a file or a pipe shows on the terminal how far it has got, and so does a
        // table at the terminal, printed only once every row is in; data streamed onto the
        // terminal itself would mix with progress lines.
        if (!ctx.io.stdoutIsTTY || writer.holdsRows) spinner = await ctx.spinner(`Fetched 0 of ${total} ${o.noun}…`);
      }
      if (o.beforePage) await o.beforePage(p.results as Record<string, unknown>[]);
      await writer.write(o.map ? (p.results as Record<string, unknown>[]).map(o.map).filter((item) => item !== undefined) : p.results);
      if (total !== undefined) spinner.update(`Fetched ${writer.count} of ${total} ${o.noun}…`);
    }
  } catch (err) {
    // A failure half-way still leaves stdout parseable (the JSON array closed); the exit
    // code and the error on stderr say the list is incomplete. Not --jq's answer about the
    // whole list: computed on part of it, it would read as true.
    spinner.stop();
    if (writer.count > 0 && !writer.wholeOnly) await writer.end().catch(() => undefined);
    warnChanged(ctx, changes, o.noun, err);
    throw err;
  } finally {
    spinner.stop();
  }
  await writer.end();
  warnChanged(ctx, changes, o.noun);
  // As gh does: a person at a terminal learns that the list is a first page, and how to get more.
  // After a table the line follows its rows (in the pager too); JSON or CSV keep stdout to themselves.
  const shown = writer.count;
  const offset = page.offset ?? 0;
  if (!ctx.io.stdoutIsTTY || page.all || matching === null) return;
  let line: string | undefined;
  // A later page says which rows it holds (as a pager's "21–30 of 197"), not only how many.
  if (matching > offset + shown) line = `Showing ${offset > 0 && shown > 0 ? `${offset + 1}–${offset + shown}` : shown} of ${matching} ${o.noun} (--limit N, --offset N or --all for more)`;
  else if (shown === 0 && offset > 0 && matching > 0) line = `--offset ${offset} is past the end (${matching} in all)`;
  if (line === undefined) return;
  if (writer.note) await writer.note(line);
  else if (ctx.io.stderrIsTTY) ctx.io.info(line);
}

/** Before a long --all on a terminal: how many requests to expect, and what the rate limit allows. */
function announceLongRun(ctx: Context, total: number, perPage: number, noun: string): void {
  if (!ctx.io.stderrIsTTY || perPage === 0) return;
  const requests = Math.ceil(Math.max(total, 0) / perPage);
  if (requests <= 1) return;
  const rl = ctx.client().rateLimit;
  const budget = rl.remaining !== undefined ? `; the rate limit has ${rl.remaining} of ${rl.limit ?? '?'} requests left this hour` : '';
  ctx.io.info(`Fetching ${total} ${noun} in about ${requests} requests${budget}.`);
}

/** How a list read page by page changed meanwhile: items served twice, and its count at the first page and the last. */
export interface ListChanges {
  duplicates: number;
  first: number | null;
  last: number | null;
}

export function noteChanges(changes: ListChanges, page: { duplicates: number; count: number | null; request: number }): void {
  changes.duplicates = page.duplicates;
  if (page.request === 1) changes.first = page.count;
  changes.last = page.count;
}

/**
 * Once, at the end of a listing: items the service served on more than one page were written
 * once; a count that moved between the first page and the last means items may have shifted
 * past a page boundary unseen (offset paging), or the list is another one (a workspace switched
 * elsewhere while it was read). Nothing when pages that do not advance stopped it (`stoppedBy`):
 * its error names that fault.
 */
export function warnChanged(ctx: Context, changes: ListChanges, noun: string, stoppedBy?: unknown): void {
  if (stoppedBy instanceof StuckPaginationError) return;
  const { duplicates, first, last } = changes;
  if (duplicates === 1) ctx.io.warn(`1 ${singular(noun)} came twice (the list changed while it was read): it was written once`);
  else if (duplicates > 0) ctx.io.warn(`${duplicates} ${noun} came twice (the list changed while it was read): each was written once`);
  if (first !== null && last !== null && first !== last) {
    ctx.io.warn(`the list changed while it was read (${first} ${noun} at its first page, ${last} at its last): some may be missing or repeated; run it again for a consistent copy`);
  }
}
