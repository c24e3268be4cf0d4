// sct imports list/get/create: data exchange runs. The API documents neither the run's fields
// nor the create body, so the named flags are the common ones (type, source, document, name)
// passed as given, and --set/--file reach any other field.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { addDryRunOption } from './shared/dry-run.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { addBodyOptions, addIdempotencyKeyOption, addGetCommand, addListCommand, saveOne } from './shared/crud.js';
import { parseInteger } from './shared/flags.js';
import type { BodyFlags } from './shared/body.js';

export interface ImportRunFlags extends BodyFlags {
  type?: string;
  source?: string;
  document?: string;
  name?: string;
}

export function register(program: Command, f: Factory): void {
  const imports = program.command('imports').description('Data exchange runs (imports)');

  addListCommand(imports, f, { summary: 'List the company’s data exchange runs', path: PATHS.imports, columns: COLUMNS.importRun, noun: 'imports', examples: ['sct imports list', 'sct imports list --ordering -created_at --limit 5'] });
  addGetCommand(imports, f, { noun: 'data exchange run', path: PATHS.importRun, columns: COLUMNS.importRun, examples: ['sct imports get 10', 'sct imports get 10 --json status'] });

  addExamples(
    addDryRunOption(addIdempotencyKeyOption(addBodyOptions(
    imports
      .command('create')
      .description('Start a data exchange run')
      .option('--type <type>', 'what the run imports (e.g. orders, origins, products)')
      .option('--source <source>', 'where the data comes from (e.g. csv, xlsx, api, sftp)')
      .option('--document <id>', 'an uploaded document holding the data (see `sct documents upload`)')
      .option('--name <text>', 'a name for the run'),
  ))),
    ['sct imports create --type orders --source csv --document 4'],
  ).action(f.action<ImportRunFlags>((ctx, opts) => createImportRun(ctx, opts)));
}

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
