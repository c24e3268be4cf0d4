// The single-resource verbs every noun shares: get, delete (with confirmation), and
// create/update from --file, named flags and --set, validated before anything is sent.
import type * as z from 'zod';
import type { Context } from '../../context.js';
import type { DocumentedResource } from '../../api/schemas/fields.js';
import type { Column } from '../../output/columns.js';
import type { TimeLimit } from '../../api/request.js';
import { writeOne } from '../../output/format.js';
import { AnswerError, CancelledError, RateLimitError, SctError, UsageError } from '../../errors.js';
import { cleanCell } from '../../util/sanitize.js';
import { savedObject } from '../../api/answers.js';
import { said } from '../../api/errors.js';
import { BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION, buildBody, canonicalEnums, refuseSetBesideFlags, promptMissing, notAskedReason, validate, type BodyFlags, type FieldAskers } from './body.js';
import { parseInteger } from './flags.js';
import { LIST_OPTIONS, listQuery, runList } from './list.js';
import { DRY_RUN_OPTION } from './dry-run.js';
import type { OptionEntry, OptionsOf } from './options.js';
import { defineLeaf, type Leaf } from './spec.js';

/** Resource ids are integers 0..ID_MAX: checked locally, so a typo never reaches the API. */
export function parseId(value: string, what = 'ID'): number {
  return parseInteger(value, what, 0)!;
}

/** The --idempotency-key given, checked before anything is sent: it goes into a header as it is. */
export function idempotencyKeyOf(flags: Pick<BodyFlags, 'idempotencyKey'>): string | undefined {
  const key = flags.idempotencyKey;
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw new UsageError(`invalid --idempotency-key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)}: use 1 to 255 printable ASCII characters, no spaces`);
  }
  return key;
}

/**
 * A create whose answer never came (a 502 after the retries, a timeout, a signal once it was
 * sent) may have been carried out: the hint gives the key that learns its outcome without
 * creating it twice, which the user could not know (it is new for each run).
 */
export async function withRerunKey<T>(send: Promise<T>, how: RerunKey = CREATE_KEY, given?: string): Promise<T> {
  try {
    return await send;
  } catch (err) {
    // A wait's own hint ("rerun after that time") comes after it: a rerun without the key would
    // follow it into a second object. Any other hint of its own (an answer that came without
    // the object: a rerun with the key gets that answer again) is left alone.
    if (err instanceof SctError && err.delivery === 'unknown' && err.afterRedirect !== undefined && (err.hint === undefined || err instanceof RateLimitError)) {
      const same = `it may have been ${how.done} (${whyUnknown(err)}): a rerun with its key gets the same redirect; see whether it was ${how.done} before ${how.doing} it again`;
      err.hint = err.hint === undefined ? same : `${same}; ${err.hint}`;
    } else if (err instanceof SctError && err.delivery === 'unknown' && err.idempotencyKey && (err.hint === undefined || err instanceof RateLimitError)) {
      const why = whyUnknown(err);
      // A key the user gave is in the command already: running it again is enough.
      const rerun = given === err.idempotencyKey ? 'run the same command again (it sends the same key)' : `run the same command with ${how.flag(err.idempotencyKey)}`;
      const key = `it may have been ${how.done} (${why}): ${rerun} to get its outcome without ${how.doing} it twice`;
      err.hint = err.hint === undefined ? key : `${key}; ${err.hint}`;
    }
    throw err;
  }
}

/** Why a change may have been made: an answer that came (a 500 after the retries, a 200 that is not JSON) says nothing of whether it was either. */
function whyUnknown(err: SctError): string {
  if (err.afterRedirect !== undefined) return err.afterRedirect;
  // An answer sct could not use carries its status too: what was wrong with it is the reason.
  return err instanceof AnswerError ? 'its answer was not one sct can read' : typeof err.status === 'number' ? `the service answered ${err.status}` : 'its answer never came';
}

/**
 * An update or a delete that may have been made (its answer lost, cut or unreadable) has no key
 * to learn its outcome by: said so, with the command that shows whether it was, before it is
 * sent again (a delete that went through answers 404 the second time).
 */
export async function withUnknownOutcome<T>(send: Promise<T>, done: 'updated' | 'deleted', getCommand: string): Promise<T> {
  try {
    return await send;
  } catch (err) {
    if (err instanceof SctError && err.delivery === 'unknown' && err.hint === undefined) {
      const see = done === 'deleted' ? 'shows whether it is still there' : 'shows whether it was, before you send the change again';
      err.hint = `it may have been ${done} (${whyUnknown(err)}): \`${getCommand}\` ${see}`;
    }
    throw err;
  }
}

/** How a rerun gives the key (a flag, a header), and the words for what may have been done. */
export interface RerunKey {
  flag: (key: string) => string;
  done: string;
  doing: string;
}

const CREATE_KEY: RerunKey = { flag: (key) => `--idempotency-key ${key}`, done: 'created', doing: 'creating' };

export async function showOne(ctx: Context, path: string, columns: Column[], detail?: Column[]): Promise<unknown> {
  const data = await ctx.client().getObject(path);
  await writeOne(ctx.io, data, { ...ctx.output(columns), detail });
  return data;
}

/** `also`: what the delete does besides, as asked (`and withdraw it …`) and as done (`and asked … to withdraw it`). */
export async function deleteOne(ctx: Context, path: string, whatGiven: string, getCommand: string, query?: Record<string, string>, also?: { ask: string; done: string }): Promise<void> {
  // Named with the service's words (an external id, a name), one line and cut: a question of
  // 200,000 characters is redrawn at each key.
  const what = said(whatGiven, 200);
  if (!(await ctx.confirm(`Delete ${what}${also ? ` ${also.ask}` : ''}?`))) throw new CancelledError(`cancelled: ${what} was not deleted`);
  await withUnknownOutcome(ctx.client().delete(path, query), 'deleted', getCommand);
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Deleted ${what}${also ? ` ${also.done}` : ''}`);
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
  /** The flags of fields whose flag has another name (auth_group: --role), for the hints. */
  flagNames?: Record<string, string>;
  /** An update's `sct … get ID`: what shows whether an update whose answer was lost was made. */
  getCommand?: string;
  /**
   * The command's own --timeout, which bounds the request too (`dds create --wait`): started as
   * the request is about to go, once the questions a terminal asks are answered.
   */
  timeLimit?: () => TimeLimit;
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
  refuseSetBesideFlags(o.flags.set, o.named);
  const body = await buildBody(o.flags, canonicalEnums(o.schema, o.named), ctx.io.stdin, ctx.signal);
  if (o.method === 'PATCH' && Object.keys(body).length === 0) {
    throw new UsageError(`nothing to update: give at least one field flag, --set or --file`);
  }
  if (o.method === 'POST') await promptMissing(ctx, o.schema, body, o.askers);
  const valid = validate(o.schema, body, o.what, { notAsked: notAskedReason(ctx), flags: o.flagNames });
  const timeLimit = o.timeLimit?.();
  // A create must answer the created object: anything else (a 2xx page, an empty body) is no proof.
  const send = ctx.client().request({ method: o.method, path: o.path, body: valid, expect: o.method === 'POST' ? 'created' : undefined, idempotencyKey, timeLimit });
  const res = await (o.method === 'POST' || o.getCommand === undefined ? withRerunKey(send, undefined, idempotencyKey) : withUnknownOutcome(send, 'updated', o.getCommand));
  const saved = savedObject(res, o.method, o.path, o.what);
  ctx.io.info(`${ctx.io.colorErr.green('✓')} ${o.method === 'POST' ? 'Created' : 'Updated'} ${o.what}${saved && saved.id !== undefined ? ` ${cleanCell(String(saved.id))}` : ''}`);
  return saved;
}

export interface CrudOptions<E extends readonly OptionEntry[]> {
  /** The resource as messages name it ("value chain"). */
  noun: string;
  /** The command group (`value-chains`). */
  group: string;
  /** What the descriptions put before the noun ("Create an origin"). */
  article: 'a' | 'an';
  /** The collection (create) and one resource (get, update, delete). */
  paths: { all: string; one: (id: number) => string };
  columns: Column[];
  /** The key/value view of one resource (get, create, update); DETAILS in output/columns.ts. */
  detail?: Column[];
  /** The resource's field flags, shared by create and update; --set and --file follow them. */
  fields: E;
  /** `--x`/`--no-x` pairs among the fields that may not both be given. */
  exclusive?: readonly string[];
  /**
   * The body fields the field flags give; a flag not given is undefined and left out. May read
   * files (origins' --location-file), hence the context and the promise.
   */
  fieldsOf: (flags: OptionsOf<E>, ctx: Context) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Loaded when a create or update runs: get and list never load zod. */
  schemas: () => Promise<{ create: z.ZodType; update: z.ZodType }>;
  /** Each verb's help examples (real command lines against the sandbox's demo data). */
  examples: { get: string[]; create: string[]; update: string[]; delete: string[] };
  /** The documented resource get, create and update print (their `--columns` and CSV header). */
  resource: DocumentedResource;
  /** `get` writes `-o geojson` too: the resource has a location. */
  geojson?: boolean;
}

/** The records of get, create, update and delete, in that order, of a resource's command group. */
export function crudLeaves<const E extends readonly OptionEntry[]>(o: CrudOptions<E>): Leaf[] {
  const idArg = [{ name: '<id>', description: `${o.noun} id` }];
  const save = async (ctx: Context, flags: OptionsOf<E> & BodyFlags, id?: number): Promise<void> => {
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
      getCommand: id === undefined ? undefined : `sct ${o.group} get ${id}`,
    });
  };
  // The run's options are the fields' and the body's; checked here once for all four verbs.
  const saveRun = (id: (args: string[]) => number | undefined) => (ctx: Context, flags: unknown, args: string[]) => save(ctx, flags as OptionsOf<E> & BodyFlags, id(args));
  return [
    { ...getLeaf({ noun: o.noun, path: o.paths.one, columns: o.columns, detail: o.detail, examples: o.examples.get }), prints: o.resource, geojson: o.geojson },
    defineLeaf({
      name: 'create',
      summary: `Create ${o.article} ${o.noun}`,
      prints: o.resource,
      options: [...o.fields, ...BODY_OPTIONS, IDEMPOTENCY_KEY_OPTION, DRY_RUN_OPTION] as readonly OptionEntry[],
      exclusive: o.exclusive,
      examples: o.examples.create,
      run: saveRun(() => undefined),
    }),
    defineLeaf({
      name: 'update',
      summary: `Update ${o.article} ${o.noun} (only the fields given)`,
      prints: o.resource,
      args: idArg,
      options: [...o.fields, ...BODY_OPTIONS, DRY_RUN_OPTION] as readonly OptionEntry[],
      exclusive: o.exclusive,
      examples: o.examples.update,
      run: saveRun(([id]) => parseId(id)),
    }),
    defineLeaf({
      name: 'delete',
      summary: `Delete ${o.article} ${o.noun} (asks for confirmation unless --yes)`,
      args: idArg,
      options: [DRY_RUN_OPTION],
      examples: o.examples.delete,
      run: (ctx, _flags, [id]) => deleteOne(ctx, o.paths.one(parseId(id)), `${o.noun} ${id}`, `sct ${o.group} get ${parseId(id)}`),
    }),
  ];
}

/** `get ID`: one resource, as a key/value view (the whole object with -o json). */
export function getLeaf(o: { noun: string; path: (id: number) => string; columns: Column[]; detail?: Column[]; examples: string[] }): Leaf {
  return defineLeaf({
    name: 'get',
    summary: `Show one ${o.noun}`,
    args: [{ name: '<id>', description: `${o.noun} id` }],
    examples: o.examples,
    run: (ctx, _flags, [id]) => showOne(ctx, o.path(parseId(id)), o.columns, o.detail).then(() => undefined),
  });
}

/** `list` with the shared list options only, for nouns whose filters the API does not document. */
export function listLeaf(o: { summary: string; path: string; columns: Column[]; noun: string; examples: string[] }): Leaf {
  return defineLeaf({
    name: 'list',
    summary: o.summary,
    options: LIST_OPTIONS,
    examples: o.examples,
    run: (ctx, opts) => runList(ctx, { path: o.path, query: listQuery(opts), flags: opts, columns: o.columns, noun: o.noun }),
  });
}

