// The options of invitations bulk-create as records: invitations.ts makes the command of them,
// and bulk-create.ts, loaded when it runs, takes its options type from here.
import { bulkRunOptions, TEMPLATE_OPTION } from '../shared/bulk.js';
import type { OptionsOf } from '../shared/options.js';

export const BULK_CREATE_OPTIONS = [
  { flags: '--file <file>', description: 'CSV file or .xlsx/.ods workbook with columns email and auth_group (- for stdin)' },
  { flags: '--role <role>', description: 'role (name or id) for rows whose auth_group is blank or missing' },
  TEMPLATE_OPTION,
  ...bulkRunOptions({ concurrency: true, dryRun: true }),
] as const;

// --file is there once --template is not (writeTemplateIf refuses a run with neither).
export type BulkCreateOptions = OptionsOf<typeof BULK_CREATE_OPTIONS> & { file: string };
