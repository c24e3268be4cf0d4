// Pagination: following a list's next links page by page, the pages requested ahead of the
// caller (--all with pages in flight), the ids already written, and the links that never end.
import { AnswerError, InterruptedError, SctError } from '../errors.js';
import { JsonText, leadingNumericId } from './json-page.js';
import { toSearchParams, type Query } from './request.js';
import type { Headers } from './transport.js';
import { plural } from '../util/format.js';
import { isPlainObject } from '../util/objects.js';

/** With --all and no --page-size sct asks for this many; the server clamps it to its maximum. */
const ALL_PAGE_SIZE = 10_000;
export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_LIMIT = 10;

export interface Page<T> {
  results: T[];
  count: number | null;
  /** Requests made so far for this listing (1 for the first page). */
  request: number;
  /** Items left out so far because an earlier page already held them (same id). */
  duplicates: number;
}

export interface PageOptions {
  /** Items in total; ignored with all. Default 10, as the API. */
  limit?: number;
  all?: boolean;
  /** Items per request. Default 100, or the server's maximum with all. */
  pageSize?: number;
  offset?: number;
  /**
   * For a list whose results are not the items themselves but wrappers holding them
   * (available-orders: `[{count, results: [...]}]`): the items of one wrapper. --limit then
   * counts items, not wrappers.
   */
  unwrap?: (element: unknown) => unknown[];
  /**
   * The items of a page as JsonText (the service's own bytes, checked to be JSON) when the page
   * allows it (see json-page.ts), else parsed as always: for output that prints them unchanged.
   */
  asJsonText?: boolean;
  /** Items of any kind (`sct api --paginate`, which prints what a list holds); else every item is an object. */
  anyItems?: boolean;
  /**
   * Pages asked for as `sct api` asks (RequestOptions.anyAnswer): a first answer that is no
   * list (an object, a 204, a CSV) ends the listing as NotAList, holding it.
   */
  anyAnswer?: boolean;
  /**
   * With all: how many pages may be under way at once when the next links page by limit and
   * offset (default 1, one at a time). See PagesAhead.
   */
  parallel?: number;
}

/** Where the pages come from: the client's requests, and what it knows of the rate limit. */
export interface PageSource {
  /** The base URL a next link's query is applied to. */
  baseUrl: string;
  /**
   * Requests one page of the listing; the signal gives up on it. A page may come as `later`: its
   * bytes are read, and made into data only when its turn comes (a compressed page of an export
   * is held compressed while it waits behind the pages before it).
   */
  fetch: (query: URLSearchParams, signal: AbortSignal) => Promise<PageAnswer>;
  /** Requests left before the rate limit, when the service said. */
  remaining: () => number | undefined;
}

/**
 * Pages through a list endpoint by following `next`. Yields page by page so callers can
 * stream; the next page is requested while the caller handles the current one. With `all`
 * and `parallel` above 1, when the next link pages by limit and offset, the pages after it are
 * requested too, up to `parallel` at a time, and still yielded in order (see pagesAhead).
 */
export async function* paginate<T = unknown>(source: PageSource, path: string, query: Query, options: PageOptions): AsyncGenerator<Page<T>> {
  const total = options.all ? Infinity : (options.limit ?? DEFAULT_LIMIT);
  const pageSize = Math.min(options.pageSize ?? (options.all ? ALL_PAGE_SIZE : DEFAULT_PAGE_SIZE), total);
  const params = toSearchParams(query);
  params.set('limit', String(pageSize));
  params.set('offset', String(options.offset ?? 0));
  const parallel = options.all ? Math.max(1, Math.floor(options.parallel ?? 1)) : 1;

  let fetched = 0;
  let requests = 1;
  // Every page asked for: a next link that leads back to one of them would loop forever.
  const asked = new Set([pageKey(params)]);
  // Ids written so far: a list that changes while it is read shifts items across pages, and
  // an item is written once however often it is served.
  const seen = new Set<string | number>();
  let duplicates = 0;
  let received = 0;
  let firstCount: number | null | undefined;
  // Requests still under way when the listing ends (an error, a stuck link, the caller
  // stopping) are given up on, never left to retry in the background.
  const stop = new AbortController();
  const get = (query: URLSearchParams): PendingPage => {
    const signal = stop.signal;
    const answer = source.fetch(query, signal).catch((err: unknown) => {
      throw atPage(err, query);
    });
    answer.catch(() => undefined); // surfaced when awaited; never an unhandled rejection meanwhile
    return { query, key: pageKey(query), answer };
  };
  let pending = get(params);
  // Pages requested beyond the next one, in order: predicted from an offset link.
  const ahead = new PagesAhead(parallel, source.remaining);
  try {
    for (;;) {
      const answer = await pending.answer;
      // A compressed page is decoded only now: its errors name the page as a fetch's do.
      const data = answer.later ? await answer.later().catch((err: unknown) => Promise.reject(atPage(err, pending.query))) : answer.data;
      const page = asPage<T>(data, path, answer.status, options.anyAnswer && requests === 1 ? answer : undefined, requests > 1 ? { fetched, requests, query: pending.query } : undefined);
      firstCount ??= page.count;
      if (!options.anyItems) refuseNonObjects(page.results, path, answer.status, pageLabel(requests, pending.query));
      const items = options.unwrap ? (page.results.flatMap(options.unwrap) as T[]) : page.results;
      if (!options.anyItems && options.unwrap) refuseNonObjects(items, path, answer.status, pageLabel(requests, pending.query));
      received += items.length;
      const fresh = unseen(items, seen);
      duplicates += items.length - fresh.length;
      const results = fresh.slice(0, total - fetched);
      fetched += results.length;

      // Only the next link's query is used, on our own base URL: a server behind a proxy often
      // builds links with an internal host or scheme, and the token must not follow those.
      const linked = page.next && fetched < total ? nextQuery(page.next, source.baseUrl, params) : undefined;
      const link = linked instanceof URLSearchParams ? linked : undefined;
      // Without a next link only the count can be wrong: a last page (or the only one) that takes
      // the items past twice the count is the same fault, whatever the page size.
      const broken = typeof linked === 'string' ? linked : undefined;
      const stuck = link
        ? stuckReason({ emptyPage: page.results.length === 0, linkAsked: asked.has(pageKey(link)), items: items.length, fresh: fresh.length, firstCount, received })
        : options.all
          ? beyondCount(firstCount, received)
          : undefined;
      if (link) {
        asked.add(pageKey(link));
        const remaining = total - fetched;
        if (remaining < Number(link.get('limit') ?? Infinity)) link.set('limit', String(remaining));
      }
      const next = link && !stuck ? (ahead.take(pageKey(link)) ?? get(link)) : undefined;
      if (link && next) ahead.fill(pending.query, link, firstCount, get);
      else ahead.drop();
      yield { results, count: page.count, request: requests, duplicates };
      if (broken) throw new AnswerError(`GET ${path}: ${broken} (stopped after ${plural(fetched, 'item')} in ${plural(requests, 'request')})`);
      if (stuck) {
        // Following such a link would never end (--all) or return the same items again.
        throw new StuckPaginationError(`the server's pagination does not advance on GET ${path}: ${stuck} (stopped after ${plural(fetched, 'item')} in ${plural(requests, 'request')})`);
      }
      if (!next) return;
      pending = next;
      requests++;
    }
  } finally {
    stop.abort();
  }
}

export interface PageAnswer {
  status: number;
  headers: Headers;
  data?: unknown;
  later?: () => Promise<unknown>;
}

interface PendingPage {
  query: URLSearchParams;
  key: string;
  answer: Promise<PageAnswer>;
}

/**
 * The pages requested beyond the next one. When a next link says "the same query, `offset`
 * moved on by `limit`", the pages after it are known too: offset + limit, + 2 × limit, … up to
 * the count of the first page. They are requested so that, with the next page, at most
 * `parallel` are under way or waiting to be handed over, and handed over only when the
 * service's own next link names them — so the order, the number of requests and what stops
 * the listing are those of one page at a time. A link that names another page (the list
 * changed while it was read) drops them and is followed as it says. While the rate limit has
 * fewer requests left than `parallel`, no page is requested ahead.
 */
class PagesAhead {
  private readonly queue: PendingPage[] = [];
  /** The offset and limit of the last page requested by prediction or link, and the query around them. */
  private last?: OffsetStep;

  constructor(
    private readonly parallel: number,
    private readonly remaining: () => number | undefined,
  ) {}

  /** The page the next link names, when it was requested ahead; anything else ahead is dropped. */
  take(key: string): PendingPage | undefined {
    if (this.queue[0]?.key === key) return this.queue.shift();
    this.drop();
    return undefined;
  }

  drop(): void {
    // Their answers are not awaited: each has its catch, and the listing's end aborts them.
    this.queue.length = 0;
    this.last = undefined;
  }

  /** Requests pages after `next` (the link just followed from `current`), up to `parallel` - 1 ahead of it. */
  fill(current: URLSearchParams, next: URLSearchParams, count: number | null | undefined, get: (q: URLSearchParams) => PendingPage): void {
    if (this.parallel <= 1 || count === null || count === undefined) return;
    const remaining = this.remaining();
    if (remaining !== undefined && remaining < this.parallel) return;
    if (!this.last) {
      const step = offsetStep(current, next);
      if (!step) return;
      this.last = step;
    }
    while (this.queue.length < this.parallel - 1) {
      const offset: number = this.last.offset + this.last.limit;
      if (offset >= count) return;
      const params: URLSearchParams = new URLSearchParams(this.last.params);
      params.set('offset', String(offset));
      this.last = { limit: this.last.limit, offset, params };
      this.queue.push(get(params));
    }
  }
}

/**
 * The offset and limit of a next link that pages by limit and offset: the current page's query
 * with only `offset` moved on, by the link's `limit`. Undefined for any other link (a cursor, a
 * page number, other filters), which is followed one page at a time.
 */
interface OffsetStep {
  offset: number;
  limit: number;
  params: URLSearchParams;
}

function offsetStep(current: URLSearchParams, next: URLSearchParams): OffsetStep | undefined {
  const int = (v: string | null) => (v !== null && /^\d+$/.test(v) ? Number(v) : undefined);
  const offset = int(next.get('offset'));
  const limit = int(next.get('limit'));
  const was = int(current.get('offset')) ?? 0;
  if (offset === undefined || limit === undefined || limit === 0 || offset <= was) return undefined;
  const rest = (q: URLSearchParams) => {
    const r = new URLSearchParams(q);
    r.delete('offset');
    r.delete('limit');
    return pageKey(r);
  };
  if (rest(current) !== rest(next)) return undefined;
  return { offset, limit, params: new URLSearchParams(next) };
}

/**
 * A page's list. An answer that is none ends the listing: a `first` page taken as any answer as
 * NotAList; a `later` one naming the page and what was written before it.
 */
function asPage<T>(
  data: unknown,
  path: string,
  status: number,
  first?: PageAnswer,
  later?: { fetched: number; requests: number; query: URLSearchParams },
): { results: T[]; count: number | null; next: string | null } {
  if (Array.isArray(data)) return { results: data as T[], count: data.length, next: null };
  if (data && typeof data === 'object' && Array.isArray((data as { results?: unknown }).results)) {
    const d = data as { results: T[]; count?: number; next?: string | null };
    return { results: d.results, count: typeof d.count === 'number' ? d.count : null, next: d.next ?? null };
  }
  if (first) throw new NotAList(`unexpected response from GET ${path}: not a paginated list`, { ...first, data });
  if (!later) throw new AnswerError(`unexpected response from GET ${path}: not a paginated list`, status);
  const page = pageLabel(later.requests, later.query);
  throw new AnswerError(`unexpected response from GET ${path}: ${page} is not a paginated list (stopped after ${plural(later.fetched, 'item')} in ${plural(later.requests, 'request')})`, status);
}

/**
 * A listing stopped because its pages do not advance: the items it served again are this fault,
 * not a list that changed while it was read (src/commands/shared/list.ts says nothing of them then).
 */
export class StuckPaginationError extends SctError {}

/** A first answer that is no list, for a listing that takes one (PageOptions.anyAnswer): it ends the listing, and is the caller's to use. */
export class NotAList extends AnswerError {
  constructor(
    message: string,
    readonly page: PageAnswer,
  ) {
    super(message, page.status);
    this.name = 'NotAList';
  }
}

/**
 * Every documented list holds objects: a null, a number or a string among them is the service's
 * fault (a row of nothing in a table, a TypeError in a sync), said as an answer error.
 */
/** Which page an answer was, as messages name it: "the page" of a one-page list, else by offset or number. */
function pageLabel(requests: number, query: URLSearchParams): string {
  if (requests <= 1) return 'the page';
  const offset = Number(query.get('offset'));
  return offset > 0 ? `the page at offset ${offset}` : `page ${requests}`;
}

function refuseNonObjects(items: readonly unknown[], path: string, status: number, page: string): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item instanceof JsonText ? firstByte(item) === 0x7b : isPlainObject(item)) continue;
    const value = item instanceof JsonText ? JSON.parse(Buffer.from(item.bytes).toString('utf8')) : item;
    const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'boolean' ? String(value) : `a ${typeof value}`;
    throw new AnswerError(`unexpected answer from GET ${path}: result ${i + 1} of ${page} is ${what}, not an object`, status);
  }
}

/** The first byte of a JSON text that is no white space. */
function firstByte(text: JsonText): number | undefined {
  return text.bytes.find((b) => b !== 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d);
}

/**
 * An item's id, or undefined when it has none. Items passed through as JsonText are not parsed
 * when their id comes first, as list endpoints write it; only an item that starts otherwise is.
 */
function itemId(item: unknown): string | number | undefined {
  if (item instanceof JsonText) {
    const id = leadingNumericId(item);
    if (id !== undefined) return id;
    item = JSON.parse(Buffer.from(item.bytes).toString('utf8'));
  }
  const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
  // An id past 2^53 came out of JSON.parse rounded: two such ids may read the same, and two
  // orders are never made one by it. Such items are not deduplicated at all.
  if (typeof id === 'number') return Number.isSafeInteger(id) ? id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * An error of a page past the first says which page: with pages in flight, "GET /orders" alone
 * does not (a page given up on, an interruption, is no page's error).
 */
function atPage(err: unknown, query: URLSearchParams): unknown {
  const offset = Number(query.get('offset'));
  if (err instanceof SctError && !(err instanceof InterruptedError) && offset > 0 && !err.message.includes('(the page at offset')) {
    err.message = `${err.message} (the page at offset ${offset})`;
  }
  return err;
}

/** A page's query with its parameters in order, so the same page reads the same. */
function pageKey(params: URLSearchParams): string {
  const sorted = new URLSearchParams(params);
  sorted.sort();
  return sorted.toString();
}

/** The items whose id is not in `seen` (which they join), and those without an id. */
function unseen<T>(items: T[], seen: Set<string | number>): T[] {
  return items.filter((item) => {
    const id = itemId(item);
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** Why following a next link would never end (--all) or serve the same items again; undefined when it advances. */
function stuckReason(p: { emptyPage: boolean; linkAsked: boolean; items: number; fresh: number; firstCount: number | null | undefined; received: number }): string | undefined {
  if (p.emptyPage) return 'an empty page links to a next one';
  if (p.linkAsked) return 'the next link leads to a page already fetched';
  // Links that differ only by a token say nothing: what the pages hold does.
  if (p.items > 0 && p.fresh === 0) return 'a page holds only items already read (the same page again)';
  return beyondCount(p.firstCount, p.received);
}

/** Whether the items received are more than twice what the list's first page counted. */
function beyondCount(firstCount: number | null | undefined, received: number): string | undefined {
  if (firstCount !== null && firstCount !== undefined && received > 2 * Math.max(firstCount, 1)) return `more items than twice the ${firstCount} the list counts`;
  return undefined;
}

/**
 * The query of a next link, or why it cannot be followed: a link that is no URL (the service's
 * fault) ends the listing as one that does not advance does, the page that came written first.
 */
function nextQuery(next: unknown, baseUrl: string, asked: URLSearchParams): URLSearchParams | string {
  if (typeof next !== 'string') return `the answer's next link is no URL (${JSON.stringify(next)})`;
  const quoted = JSON.stringify(next.length > 200 ? `${next.slice(0, 200)}…` : next);
  let url: URL;
  try {
    url = new URL(next, baseUrl + '/');
  } catch {
    return `the answer's next link is no URL (${quoted})`;
  }
  // Only its query is followed, on the base URL: a file: or javascript: link is no page of the list.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `the answer's next link is no http(s) URL (${quoted})`;
  if ([...url.searchParams.keys()].length === 0) return `the answer's next link names no page (${quoted}: no query)`;
  // A link that pages by offset or page number keeps the request's own filters: one that left
  // them out would list what was not asked for (every order, where one supplier's were). A cursor
  // is opaque: it may carry them itself (and some services refuse them beside it).
  if (!url.searchParams.has('offset') && !url.searchParams.has('page')) return url.searchParams;
  for (const key of new Set(asked.keys())) {
    if (PAGING.has(key)) continue;
    const wanted = asked.getAll(key).sort().join(',');
    if (url.searchParams.getAll(key).sort().join(',') !== wanted) return `the answer's next link leaves out the request's ${key}=${wanted} (${quoted})`;
  }
  return url.searchParams;
}

/** The parameters a next link changes from page to page. */
const PAGING = new Set(['limit', 'offset', 'cursor', 'page', 'page_size']);
