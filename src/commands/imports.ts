// sct imports list/get/create: data exchange runs. The API documents neither the run's fields
// nor the create body, so the named flags are the common ones (type, source, document, name)
// passed as given, and --set/--file reach any other field.
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { getLeaf, listLeaf, saveOne } from './shared/crud.js';
import { parseInteger } from './shared/flags.js';
import { BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION } from './shared/body.js';

const CREATE_IMPORT_OPTIONS = [
  { flags: '--type <type>', description: 'what the run imports (e.g. orders, origins, products)' },
  { flags: '--source <source>', description: 'where the data comes from (e.g. csv, xlsx, api, sftp)' },
  { flags: '--document <id>', description: 'an uploaded document holding the data (see `sct documents upload`)' },
  { flags: '--name <text>', description: 'a name for the run' },
  ...BODY_OPTIONS,
  IDEMPOTENCY_KEY_OPTION,
  DRY_RUN_OPTION,
] as const;

export type ImportRunFlags = OptionsOf<typeof CREATE_IMPORT_OPTIONS>;

export const register = registerOf({
  name: 'imports',
  leaves: [
    listLeaf({ summary: 'List the company’s data exchange runs', path: PATHS.imports, columns: COLUMNS.importRun, noun: 'imports', examples: ['sct imports list', 'sct imports list --ordering -created_at --limit 5'] }),
    getLeaf({ noun: 'data exchange run', path: PATHS.importRun, columns: COLUMNS.importRun, examples: ['sct imports get 10', 'sct imports get 10 --json status'] }),
    defineLeaf({
      name: 'create',
      summary: 'Start a data exchange run',
      options: CREATE_IMPORT_OPTIONS,
      examples: ['sct imports create --type orders --source csv --document 4'],
      run: (ctx, opts) => createImportRun(ctx, opts),
    }),
  ],
});

async function createImportRun(ctx: Context, opts: ImportRunFlags): Promise<void> {
  await saveOne(ctx, {
    method: 'POST',
    path: PATHS.imports,
    flags: opts,
    named: { type: opts.type, source: opts.source, document: parseInteger(opts.document, '--document'), name: opts.name },
    // Loaded by create alone: list and get never load zod.
    schema: (await import('../api/schemas/files.js')).importCreateSchema,
    what: 'import run',
    columns: COLUMNS.importRun,
  });
}
