// The options of dds create and update as records: made into commands with the command tree,
// without the code (and the schemas) that checks and sends the statement (save.ts), which takes
// its options types from here.
import { DDS_STATUSES, DDS_TYPES } from '../../api/enums.js';
import { BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION } from '../shared/body.js';
import { DRY_RUN_OPTION } from '../shared/dry-run.js';
import { appendList } from '../shared/flags.js';
import { formatDuration } from '../../util/format.js';
import { TIMEOUT_OPTION } from '../../global-flags.js';
import type { OptionsOf } from '../shared/options.js';

/** How long a wait lasts when no --timeout is given (wait.ts). */
export const DEFAULT_WAIT_MS = 10 * 60_000;

/** The wait's --timeout (wait.ts reads it: commander hands it to the global one of the same name). */
export const WAIT_TIMEOUT_OPTION = {
  flags: '--timeout <duration>',
  description: `how long to wait for the statement in all, e.g. 90s, 10m, 1h (default ${formatDuration(DEFAULT_WAIT_MS)}); here it is not the per-request timeout`,
} as const;

export const CREATE_OPTIONS = [
  { flags: '--type <type>', description: (v: readonly string[]) => `${v.join(', ')} (required)`, values: DDS_TYPES },
  { flags: '--name <text>', description: 'a name for the statement (at most 255 characters)' },
  { flags: '--dds-identifier <id>', description: 'the EU registry reference (EUDR: retrieve a filed statement; PPWR: required)' },
  { flags: '--order <ids>', description: 'orders you buy to attach, comma-separated or repeated', parse: appendList },
  { flags: '--product <ids>', description: 'products you own to attach, comma-separated or repeated', parse: appendList },
  { flags: '--assessment-run-id <uuids>', description: 'assessment runs to pin, comma-separated or repeated (PPWR, EUDR without identifier)', parse: appendList },
  ...BODY_OPTIONS,
  { alias: 'orders', of: 'order' },
  { alias: 'products', of: 'product' },
  { alias: 'assessment-run-ids', of: 'assessment-run-id' },
  IDEMPOTENCY_KEY_OPTION,
  { flags: '--wait', description: 'wait until the service has finished the statement (complete: exit 0, failed: exit 1)' },
  // Without --wait the global --timeout, per request, as on every command.
  { flags: '--timeout <duration>', description: `with --wait: how long the command may take in all, the create and the wait, e.g. 90s, 10m (default ${formatDuration(DEFAULT_WAIT_MS)}); without it, the timeout of each request (default ${TIMEOUT_OPTION.default}s)` },
  DRY_RUN_OPTION,
] as const;

export type CreateFlags = OptionsOf<typeof CREATE_OPTIONS>;

export const UPDATE_OPTIONS = [
  { flags: '--status <status>', description: (v: readonly string[]) => v.join(', '), values: DDS_STATUSES },
  { flags: '--name <text>', description: 'the statement name' },
  DRY_RUN_OPTION,
] as const;

export type UpdateFlags = OptionsOf<typeof UPDATE_OPTIONS>;
