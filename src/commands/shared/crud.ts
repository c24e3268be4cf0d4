// The single-resource verbs every noun shares: get, delete (with confirmation), and
// create/update from --file, named flags and --set, validated before anything is sent.
import type { Command } from 'commander';
import type { z } from 'zod';
import type { Context } from '../../context.js';
import { addExamples, type Factory } from './command.js';
import { prints, writesGeojson } from './output-facts.js';
import type { DocumentedResource } from '../../api/schemas/fields.js';
import type { Column } from '../../output/columns.js';
import { writeOne } from '../../output/format.js';
import { CancelledError, UsageError } from '../../errors.js';
import { stripControl } from '../../output/sanitize.js';
import { buildBody, canonicalEnums, promptMissing, validate, type BodyFlags, type FieldAskers } from './body.js';
import { collect, parseInteger } from './flags.js';
import { addListOptions, listQuery, runList, type ListFlags } from './list.js';
import { addDryRunOption } from './dry-run.js';

/** Resource ids are integers 0..ID_MAX: checked locally, so a typo never reaches the API. */
export function parseId(value: string, what = 'ID'): number {
  return parseInteger(value, what, 0)!;
}

export function addBodyOptions(cmd: Command): Command {
  return cmd
    .option('--set <key=value>', 'set any field; value parsed as JSON when it parses, dotted keys nest (repeatable)', collect)
    .option('--file <file>', 'the whole request body as JSON (- for stdin); flags override its fields');
}

/**
 * Every create takes the key its POST carries, so a script that reruns a create whose answer was
 * lost (a timeout, a dropped connection) can send the same key and get the first object back,
 * never a second one. Without it each run has a new key, which its own retries reuse.
 */
export function addIdempotencyKeyOption(cmd: Command): Command {
  return cmd.option('--idempotency-key <key>', 'the Idempotency-Key of the request: a rerun with the same key creates nothing new (default: a new UUID per run)');
}

/** The --idempotency-key given, checked before anything is sent: it goes into a header as it is. */
export function idempotencyKeyOf(flags: BodyFlags): string | undefined {
  const key = flags.idempotencyKey;
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new UsageError(`invalid --idempotency-key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)}: use 1 to 255 printable ASCII characters, no spaces`);
  }
  return key;
}

export async function showOne(ctx: Context, path: string, columns: Column[], detail?: Column[]): Promise<unknown> {
  const data = await ctx.client().get(path);
  await writeOne(ctx.io, data, { ...ctx.output(columns), detail });
  return data;
}

export async function deleteOne(ctx: Context, path: string, what: string, query?: Record<string, string>): Promise<void> {
  if (!(await ctx.confirm(`Delete ${what}?`))) throw new CancelledError(`cancelled: ${what} was not deleted`);
  await ctx.client().delete(path, query);
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Deleted ${stripControl(what)}`);
}

export interface SaveOptions<S extends z.ZodType> {
  method: 'POST' | 'PATCH';
  path: string;
  flags: BodyFlags;
  named: Record<string, unknown>;
  schema: S;
  what: string;
  columns: Column[];
  /** The key/value view of the saved resource on a terminal (else its fields as returned). */
  detail?: Column[];
  /** Fields a create asks in their own way at a terminal when left out. */
  askers?: FieldAskers;
}

/** Builds, validates and sends a create/update body; prints the saved resource. */
export async function saveOne<S extends z.ZodType>(ctx: Context, o: SaveOptions<S>): Promise<unknown> {
  const saved = await sendOne(ctx, o);
  await writeOne(ctx.io, saved, { ...ctx.output(o.columns), detail: o.detail });
  return saved;
}

/**
 * saveOne without printing the result, for a command that prints something else after it
 * (`dds create --wait` prints the statement once it is final).
 */
export async function sendOne<S extends z.ZodType>(ctx: Context, o: Omit<SaveOptions<S>, 'columns' | 'detail'>): Promise<Record<string, unknown> | null> {
  const idempotencyKey = o.method === 'POST' ? idempotencyKeyOf(o.flags) : undefined;
  const body = await buildBody(o.flags, canonicalEnums(o.schema, o.named), ctx.io.stdin);
  if (o.method === 'PATCH' && Object.keys(body).length === 0) {
    throw new UsageError(`nothing to update: give at least one field flag, --set or --file`);
  }
  if (o.method === 'POST') await promptMissing(ctx, o.schema, body, o.askers);
  const valid = validate(o.schema, body, o.what);
  // A create must answer the created object: anything else (a 2xx page, an empty body) is no proof.
  const res = await ctx.client().request({ method: o.method, path: o.path, body: valid, expect: o.method === 'POST' ? 'created' : undefined, idempotencyKey });
  const saved = res.data as Record<string, unknown> | null;
  ctx.io.info(`${ctx.io.colorErr.green('✓')} ${o.method === 'POST' ? 'Created' : 'Updated'} ${o.what}${saved && saved.id !== undefined ? ` ${stripControl(String(saved.id))}` : ''}`);
  return saved;
}

export interface CrudCommandsOptions<F extends BodyFlags> {
  /** The resource as messages name it ("value chain"). */
  noun: string;
  /** What the descriptions put before the noun ("Create an origin"). */
  article: 'a' | 'an';
  /** The collection (create) and one resource (get, update, delete). */
  paths: { all: string; one: (id: number) => string };
  columns: Column[];
  /** The key/value view of one resource (get, create, update); DETAILS in output/columns.ts. */
  detail?: Column[];
  /** The resource's field flags, shared by create and update; --set and --file follow them. */
  addFields: (cmd: Command) => Command;
  /**
   * The body fields the field flags give; a flag not given is undefined and left out. May read
   * files (origins' --location-file), hence the context and the promise.
   */
  fieldsOf: (flags: F, ctx: Context) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Loaded when a create or update runs: get and list never load zod. */
  schemas: () => Promise<{ create: z.ZodType; update: z.ZodType }>;
  /** Each verb's help examples (real command lines against the sandbox's demo data). */
  examples: { get: string[]; create: string[]; update: string[]; delete: string[] };
  /** The documented resource get, create and update print (their `--columns` and CSV header). */
  resource: DocumentedResource;
  /** `get` writes `-o geojson` too: the resource has a location. */
  geojson?: boolean;
}

/** Registers get, create, update and delete, in that order, on a resource's command group. */
export function addCrudCommands<F extends BodyFlags>(group: Command, f: Factory, o: CrudCommandsOptions<F>): void {
  const idHelp = `${o.noun} id`;
  const save = async (ctx: Context, flags: F, id?: number): Promise<void> => {
    const schemas = await o.schemas();
    await saveOne(ctx, {
      method: id === undefined ? 'POST' : 'PATCH',
      path: id === undefined ? o.paths.all : o.paths.one(id),
      flags,
      named: await o.fieldsOf(flags, ctx),
      schema: id === undefined ? schemas.create : schemas.update,
      what: o.noun,
      columns: o.columns,
      detail: o.detail,
    });
  };

  if (f.leaf('get')) {
    const get = prints(addGetCommand(group, f, { noun: o.noun, path: o.paths.one, columns: o.columns, detail: o.detail, examples: o.examples.get }), o.resource);
    if (o.geojson) writesGeojson(get);
  }

  if (f.leaf('create')) addExamples(addDryRunOption(addIdempotencyKeyOption(addBodyOptions(o.addFields(prints(group.command('create'), o.resource).description(`Create ${o.article} ${o.noun}`))))), o.examples.create).action(
    f.action<F>((ctx, flags) => save(ctx, flags)),
  );
  if (f.leaf('update')) addExamples(
    addDryRunOption(addBodyOptions(o.addFields(prints(group.command('update'), o.resource).argument('<id>', idHelp).description(`Update ${o.article} ${o.noun} (only the fields given)`)))),
    o.examples.update,
  ).action(f.action<F>((ctx, flags, [id]) => save(ctx, flags, parseId(id))));

  if (f.leaf('delete')) addExamples(
    addDryRunOption(group
      .command('delete')
      .argument('<id>', idHelp)
      .description(`Delete ${o.article} ${o.noun} (asks for confirmation unless --yes)`)),
    o.examples.delete,
  )
    .action(f.action((ctx, _flags, [id]) => deleteOne(ctx, o.paths.one(parseId(id)), `${o.noun} ${id}`)));
}

/** `get ID`: one resource, as a key/value view (the whole object with -o json). */
export function addGetCommand(
  group: Command,
  f: Factory,
  o: { noun: string; path: (id: number) => string; columns: Column[]; detail?: Column[]; examples: string[] },
): Command {
  return addExamples(group.command('get').argument('<id>', `${o.noun} id`).description(`Show one ${o.noun}`), o.examples)
    .action(f.action((ctx, _flags, [id]) => showOne(ctx, o.path(parseId(id)), o.columns, o.detail).then(() => undefined)));
}

/** `list` with the shared list options only, for nouns whose filters the API does not document. */
export function addListCommand(
  group: Command,
  f: Factory,
  o: { description: string; path: string; columns: Column[]; noun: string; examples: string[] },
): Command {
  return addExamples(addListOptions(group.command('list').description(o.description)), o.examples).action(
    f.action<ListFlags>((ctx, opts) => runList(ctx, { path: o.path, query: listQuery(opts), flags: opts, columns: o.columns, noun: o.noun })),
  );
}
