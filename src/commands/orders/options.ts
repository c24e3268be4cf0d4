// The options of orders list, stats, trace, import and sync as records: orders.ts makes the
// commands of them, and the modules their runs load (view.ts; trace.ts, import.ts and sync.ts on
// demand) take their options types from here, so a new flag is one entry.
import { ORDER_FILTERS } from '../../api/filters/orders.js';
import { STATISTICS_DELIMIT_BY, STATISTICS_GROUP_BY } from '../../api/enums.js';
import { LIST_OPTIONS } from '../shared/list.js';
import { TEMPLATE_OPTION, bulkRunOptions } from '../shared/bulk.js';
import { DRY_RUN_OPTION } from '../shared/dry-run.js';
import { appendList, collect } from '../shared/flags.js';
import type { OptionsOf } from '../shared/options.js';
import { ORDER_FILTER_OPTIONS, PERSPECTIVE_OPTIONS, kindOptions } from './filters.js';

export const LIST_ORDERS_OPTIONS = [...PERSPECTIVE_OPTIONS, { filters: ORDER_FILTERS }, ...LIST_OPTIONS] as const;

export type ListOrdersFlags = OptionsOf<typeof LIST_ORDERS_OPTIONS>;

export const STATS_OPTIONS = [
  ...ORDER_FILTER_OPTIONS,
  { flags: '--group-by <fields>', description: (v: readonly string[]) => `group the counts, comma-separated or repeated (${v.join(', ')})`, values: STATISTICS_GROUP_BY, parse: appendList },
  { flags: '--delimit-by <period>', description: (v: readonly string[]) => `count per period: ${v.join(', ')}`, values: STATISTICS_DELIMIT_BY },
  { flags: '--search <text>', description: 'free-text search (external ids and tags)' },
  { flags: '--filter <key=value>', description: 'a query filter, passed through (repeatable for different keys; a key twice only where it repeats: see sct help filters)', parse: collect },
] as const;

export type StatsFlags = OptionsOf<typeof STATS_OPTIONS>;

export const TRACE_OPTIONS = [
  { flags: '--item <id>', description: 'the order item to trace (required)' },
  { flags: '--to-order <ids>', description: 'order ids the item comes from, comma-separated or repeated', parse: appendList },
  { flags: '--to-origin <ids>', description: 'origin ids the item comes from, comma-separated or repeated', parse: appendList },
  { flags: '--replace', description: 'replace the traced lists given instead of adding to them (an empty value clears one)' },
  ...kindOptions('the order is'),
  DRY_RUN_OPTION,
] as const;

export type TraceFlags = OptionsOf<typeof TRACE_OPTIONS>;

export const IMPORT_OPTIONS = [
  ...kindOptions('import as'),
  { flags: '--file <file>', description: 'the CSV file or .xlsx/.ods workbook (- for stdin)' },
  TEMPLATE_OPTION,
  ...bulkRunOptions({ concurrency: true, dryRun: true }),
] as const;

export type ImportFlags = OptionsOf<typeof IMPORT_OPTIONS>;

export const SYNC_OPTIONS = [
  ...kindOptions('sync as'),
  { flags: '--file <file>', description: 'the CSV file or .xlsx/.ods workbook, with the columns of orders import (- for stdin)' },
  TEMPLATE_OPTION,
  ...bulkRunOptions({ concurrency: true, dryRun: true, reads: true }),
] as const;

export type SyncOrdersFlags = OptionsOf<typeof SYNC_OPTIONS>;
