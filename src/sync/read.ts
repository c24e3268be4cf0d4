// Reading what the service holds for a sync: one listing with --all and the largest pages the
// server gives (sct asks for 10,000 and the server clamps: 100,000 orders in 100 requests on
// the sandbox), ordered by id so that an object created meanwhile cannot shift a page.
//
// Each page is reduced as it arrives: the objects the file names are kept as snapshots (only
// the compared fields), the others summarised as "only on the service". Nothing else of the
// page is kept, so memory follows the file, not the service.
import type { ApiClient } from '../api/client.js';
import { AnswerError, InterruptedError } from '../errors.js';
import { nonObjectIn } from '../util/objects.js';
import { snapshotOf, type ServiceView, type Snapshot, type SyncSpec } from './plan.js';

type Obj = Record<string, unknown>;

export interface ServiceSource {
  path: string;
  query: Record<string, string>;
  /** The field that matches a file row with a service object. */
  keyField: string;
  /**
   * The listing's filter that finds the objects of one key (origins: `external_id`), where the
   * API documents one: a create is checked with it right before it is sent. Without one (the
   * orders listing has none), the service's own refusal of a second object under a key decides.
   */
  keyFilter?: string;
  /**
   * Whether an object of the listing is one the sync manages. An order listing of one side also
   * holds orders other companies recorded with this company as their counterparty; those are
   * neither matched nor listed.
   */
  manages?: (o: Obj) => boolean;
  /** What the plan lists of an object only on the service. */
  summary: (o: Obj) => Obj;
  /** The info line about the objects the sync does not manage, if there are any. */
  othersNote?: (n: number) => string;
  /**
   * Why a file row cannot be synced when its key names an object of the listing the sync does
   * not manage (an order of another kind, or one another company recorded): creating it would
   * put a second object under that key.
   */
  outside?: (o: Obj) => string;
}

export interface ServiceState extends ServiceView {
  byKey: Map<string, Snapshot>;
  /** Keys the service holds more than once: the first (lowest id) is matched, the others listed. */
  duplicates: Map<string, number[]>;
  /** Objects of the listing the sync does not manage. */
  others: number;
  /** The file's keys that name such an object, with why they cannot be synced. */
  outside: Map<string, string>;
  /** Requests the listing took. */
  reads: number;
}

export async function readService(
  client: ApiClient,
  source: ServiceSource,
  spec: SyncSpec,
  wanted: ReadonlySet<string>,
  o: { signal: AbortSignal; parallel?: number; onPage?: (fetched: number, count: number | null) => void },
): Promise<ServiceState> {
  const state: ServiceState = { byKey: new Map(), onlyOnService: [], duplicates: new Map(), others: 0, outside: new Map(), reads: 0 };
  let fetched = 0;
  for await (const page of client.paginate<Obj>(source.path, { ...source.query, ordering: 'id' }, { all: true, parallel: o.parallel })) {
    state.reads = page.request;
    for (const obj of page.results) {
      const key = obj[source.keyField];
      // As the file's keys are read: trimmed (a key stored with spaces around it, exported and
      // synced back, is the same object, never a twin created beside it).
      const k = typeof key === 'string' ? key.trim() : key === null || key === undefined ? undefined : String(key);
      if (source.manages && !source.manages(obj)) {
        state.others++;
        if (k !== undefined && wanted.has(k) && source.outside && !state.outside.has(k)) state.outside.set(k, source.outside(obj));
        continue;
      }
      if (k !== undefined && wanted.has(k)) {
        const first = state.byKey.get(k);
        if (!first) {
          refuseOddItems(spec, source, obj, k);
          state.byKey.set(k, snapshotOf(spec, source.keyField, obj));
          continue;
        }
        const ids = state.duplicates.get(k) ?? [first.id];
        ids.push(obj.id as number);
        state.duplicates.set(k, ids);
      }
      state.onlyOnService.push(source.summary(obj));
    }
    fetched += page.results.length;
    o.onPage?.(fetched, page.count);
    // The reads may go on after Ctrl-C (a bulk run's client finishes what it sent): stop here.
    if (o.signal.aborted) throw new InterruptedError();
  }
  return state;
}

/** An object's items as the plan compares them: a null among them is the service's fault, named, never a TypeError. */
function refuseOddItems(spec: SyncSpec, source: ServiceSource, obj: Obj, key: string): void {
  const items = spec.items ? obj[spec.items.field] : undefined;
  if (!Array.isArray(items)) return;
  const odd = nonObjectIn(items, 'item');
  if (odd) throw new AnswerError(`unexpected answer from GET ${source.path}: ${source.keyField} ${key}: ${odd}`);
}
