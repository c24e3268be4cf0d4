// The options every command that sends a file's rows in bulk shares (orders and origins
// import, invitations bulk-create, dds trace --file, info-requests send): the per-row report,
// reruns, and where the command offers them, concurrency and a dry run.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { csvLine } from '../../output/spreadsheet.js';
import type { OptionSpec, OptionsOf } from './options.js';
import { IN_FLIGHT_HELP } from './flags.js';

/** Which of the optional bulk flags a command takes. */
export interface BulkShape {
  /** --concurrency: rows sent at the same time. */
  readonly concurrency?: boolean;
  /** A --dry-run that checks every row and prints the requests (a sync: its plan) without the client's recording (dry-run.ts). */
  readonly dryRun?: boolean;
  /** The command reads a whole listing first (a sync), so it takes --parallel. */
  readonly reads?: boolean;
  /** A qualifier for commands where these options apply to one mode ("with --file: "). */
  readonly only?: string;
}

type Given<O extends BulkShape, K extends keyof BulkShape, T> = O[K] extends true ? T : readonly [];

/** `options` where the shape asks for them (`o[key]` true), else none: typed as the shape is. */
function when<O extends BulkShape, K extends keyof BulkShape, const T extends readonly OptionSpec[]>(o: O, key: K, options: T): Given<O, K, T> {
  return (o[key] ? options : []) as Given<O, K, T>;
}

/**
 * The per-row report, reruns, the file's reading and, where the shape asks, concurrency,
 * --parallel and a dry run. Its type holds only the flags the shape asks for, so OptionsOf types
 * only those.
 */
export function bulkRunOptions<const O extends BulkShape = {}>(o: O = {} as O) {
  const only = o.only ?? '';
  return [
    { flags: '--report <file>', description: `${only}also write the per-row report to this CSV file` },
    { flags: '--force', description: 'overwrite an existing --report file' },
    ...when(o, 'concurrency', [{ flags: '--concurrency <n>', description: `${only}requests at the same time (${IN_FLIGHT_HELP})` }]),
    ...when(o, 'reads', [{ flags: '--parallel <n>', description: `pages of the service's listing requested at the same time (${IN_FLIGHT_HELP})` }]),
    { flags: '--fresh', description: `${only}forget what earlier runs of this file did and send every row again` },
    ...when(o, 'dryRun', [
      {
        flags: '--dry-run',
        // A sync's dry run is its plan (what it would create and update), an import's its requests.
        description: o.reads ? 'check every row, read the service and print the plan; send nothing' : 'check every row and print each request it would send (method, path, body); send nothing',
      },
    ]),
    { flags: '--encoding <name>', description: `${only}the file's encoding when it is not UTF-8 (windows-1252, iso-8859-15, utf-16le, …)` },
    { flags: '--delimiter <c>', description: `${only}the CSV separator (default: the one of , ; tab | that finds the columns)` },
    { flags: '--skip-invalid', description: `${only}send the valid rows and report the invalid ones (exit 3) instead of sending nothing` },
    { flags: '--decimal-comma', description: `${only}numbers use a decimal comma (12,5); the default in a ;-separated file` },
    { flags: '--sheet <name>', description: `${only}the sheet to read of an .xlsx or .ods workbook, by name in any case (default: the first)` },
  ] as const;
}

/** The flags every bulk command takes, whatever its shape: what reading and checking its rows needs. */
export type BulkRunFlags = OptionsOf<ReturnType<typeof bulkRunOptions<{}>>>;

/** `--template`, for every command that reads a file of rows. */
export const TEMPLATE_OPTION = {
  flags: '--template',
  description: 'print the header of the file and one example row; read and send nothing',
} as const satisfies OptionSpec;

/** `--file` and `--template`: the rows of a bulk command, or the file to start one from. */
export const fileOptions = (description: string) => [{ flags: '--file <file>', description }, TEMPLATE_OPTION] as const;

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
