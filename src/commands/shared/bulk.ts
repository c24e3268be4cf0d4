// The options every command that sends a file's rows in bulk shares (orders and origins
// import, invitations bulk-create, dds trace --file, info-requests send): the per-row report,
// reruns, and where the command offers them, concurrency and a dry run.
import type { Command } from 'commander';
import type { FileReadFlags } from '../../bulk/csv.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { csvLine } from '../../output/spreadsheet.js';

export interface BulkRunFlags extends FileReadFlags {
  report?: string;
  force?: boolean;
  concurrency?: string;
  parallel?: string;
  fresh?: boolean;
  dryRun?: boolean;
  skipInvalid?: boolean;
}

/** `only`: a qualifier for commands where these options apply to one mode ("with --file: "). */
/** `reads`: the command reads a whole listing first (a sync), so it takes --parallel. */
export function addBulkRunOptions(cmd: Command, o: { concurrency?: boolean; dryRun?: boolean; reads?: boolean; only?: string } = {}): Command {
  const only = o.only ?? '';
  cmd
    .option('--report <file>', `${only}also write the per-row report to this CSV file`)
    .option('--force', 'overwrite an existing --report file');
  if (o.concurrency) cmd.option('--concurrency <n>', `${only}requests at the same time (1..16, default 4; one at a time while the rate limit has fewer left)`);
  if (o.reads) cmd.option('--parallel <n>', "pages of the service's listing requested at the same time (1..16, default 4; one at a time while the rate limit has fewer left)");
  cmd.option('--fresh', `${only}forget what earlier runs of this file did and send every row again`);
  if (o.dryRun) cmd.option('--dry-run', 'check every row and show what would be sent; send nothing');
  cmd
    .option('--encoding <name>', `${only}the file's encoding when it is not UTF-8 (windows-1252, iso-8859-15, utf-16le, …)`)
    .option('--delimiter <c>', `${only}the CSV separator (default: the one of , ; tab | that finds the columns)`)
    .option('--skip-invalid', `${only}send the valid rows and report the invalid ones (exit 3) instead of sending nothing`)
    .option('--decimal-comma', `${only}numbers use a decimal comma (12,5); the default in a ;-separated file`)
    .option('--sheet <name>', `${only}the sheet to read of an .xlsx or .ods workbook (default: the first)`);
  return cmd;
}

/** `--template`, for every command that reads a file of rows. */
export function addTemplateOption(cmd: Command): Command {
  return cmd.option('--template', 'print the header of the file and one example row; read and send nothing');
}

/** What `--template` prints: the command's own column list, and one row that reads back as it is. */
export interface FileTemplate {
  columns: readonly string[];
  example: Readonly<Record<string, string>>;
}

/**
 * `--template` writes the template and returns true (nothing is read or sent); without it,
 * --file is required. `required: false` for a command that has another way to give its rows.
 */
export async function writeTemplateIf(
  ctx: Pick<Context, 'io'>,
  flags: { file?: string; template?: boolean },
  template: () => FileTemplate,
  o: { required?: boolean } = {},
): Promise<boolean> {
  if (!flags.template) {
    if (flags.file === undefined && o.required !== false) throw new UsageError("required option '--file <file>' not specified (or --template for a file to start from)");
    return false;
  }
  if (flags.file !== undefined) throw new UsageError('--template prints a file to start from: give it without --file');
  const { columns, example } = template();
  await ctx.io.write(csvLine(columns) + csvLine(columns.map((c) => example[c] ?? '')));
  return true;
}
