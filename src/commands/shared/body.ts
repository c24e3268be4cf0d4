// Request bodies for create/update: --file (JSON, - for stdin), then named flags, then
// repeatable --set key=value (dotted keys nest); validated with the resource's zod schema.
import type * as z from 'zod';
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { UsageError, type FieldErrors } from '../../errors.js';
import { inputName, readInputText } from '../../util/files.js';
import { collect, parseLooseValue, setDotted, splitKeyValue } from './flags.js';
import type { OptionSpec, OptionsOf } from './options.js';
import { REQUIRED, requiredMessage } from '../../api/schemas/messages.js';
import { jsonErrorPlace } from '../../util/json-error.js';

/** --set and --file: any field of the body, after the command's named field flags. */
export const BODY_OPTIONS = [
  { flags: '--set <key=value>', description: 'set any field; value parsed as JSON when it parses, dotted keys nest (repeatable)', parse: collect },
  { flags: '--file <file>', description: 'the whole request body as JSON (- for stdin); flags override its fields' },
] as const satisfies readonly OptionSpec[];

/**
 * Every create takes the key its POST carries, so a script that reruns a create whose answer was
 * lost (a timeout, a dropped connection) can send the same key and get the first object back,
 * never a second one. Without it each run has a new key, which its own retries reuse.
 */
export const IDEMPOTENCY_KEY_OPTION = {
  flags: '--idempotency-key <key>',
  description: 'the Idempotency-Key of the request: a rerun with the same key creates nothing new (default: a new UUID per run)',
} as const satisfies OptionSpec;

/** --tag of the resources that carry tags (products, value chains, orders): the list given replaces theirs. */
export const TAGS_OPTION = { flags: '--tag <tag>', description: 'a tag (repeatable; replaces the tags)', parse: collect } as const satisfies OptionSpec;

/** --idempotency-key on creates only. */
export type BodyFlags = OptionsOf<readonly [...typeof BODY_OPTIONS, typeof IDEMPOTENCY_KEY_OPTION]>;

async function readJsonFile(file: string, stdin: Readable, signal?: AbortSignal): Promise<unknown> {
  // A byte-order mark (Notepad's UTF-8) is no part of JSON, as sct api --input reads it.
  const text = (await readInputText(file, stdin, { signal })).replace(/^\uFEFF/, '');
  // A closed stdin or an empty file: said as such, not as the end of JSON it never began.
  if (text.trim() === '') throw new UsageError(`${inputName(file)} is empty: it should hold one JSON object`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${inputName(file)} is not valid JSON${jsonErrorPlace(text, (err as Error).message)}`);
  }
}

export async function buildBody(
  flags: BodyFlags,
  named: Record<string, unknown>,
  stdin: Readable,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  if (flags.file) {
    const parsed = await readJsonFile(flags.file, stdin, signal);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`${inputName(flags.file)} must hold one JSON object`);
    }
    body = parsed as Record<string, unknown>;
  }
  for (const [k, v] of Object.entries(named)) if (v !== undefined) body[k] = v;
  for (const pair of flags.set ?? []) {
    const [k, v] = splitKeyValue(pair, '--set');
    setDotted(body, k, parseLooseValue(v, `--set ${pair}`));
  }
  return body;
}

/**
 * A --set of a field a flag gives too (`--external-id S-2 --set external_id=S-3`) is refused:
 * applied last, it would win without a word, as a --filter beside its own flag would. Dotted
 * keys count by their first part (`--item … --set items.0.unit=t`). A --file field is replaced
 * by its flag, as help says: that is no clash.
 */
export function refuseSetBesideFlags(set: readonly string[] | undefined, named: Record<string, unknown>): void {
  for (const pair of set ?? []) {
    const [key] = splitKeyValue(pair, '--set');
    const field = key.split('.')[0]!.replace(/\[.*$/, '');
    if (named[field] !== undefined) throw new UsageError(`--set ${pair}: a flag of this command gives ${field} too; give it one way`);
  }
}

/** The enum a field takes, through optional() and nullable(); undefined when it is no enum. */
function enumOptions(field: z.ZodType | undefined): string[] | undefined {
  let f = field as unknown as { options?: unknown[]; unwrap?: () => unknown } | undefined;
  for (let depth = 0; f && depth < 4; depth++) {
    if (Array.isArray(f.options)) return f.options.every((o) => typeof o === 'string') ? (f.options as string[]) : undefined;
    f = typeof f.unwrap === 'function' ? (f.unwrap() as typeof f) : undefined;
  }
  return undefined;
}

/**
 * The field flags' values with enum values spelt as the API spells them: a flag's enum value is
 * case-insensitive (`--commodity Cocoa`, `--type eudr`), the body's is not. A value matching
 * none is left as given, for validation to name the allowed ones.
 */
export function canonicalEnums(schema: z.ZodType, named: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return named;
  const out = { ...named };
  for (const [key, value] of Object.entries(named)) {
    const options = typeof value === 'string' ? enumOptions(shape[key]) : undefined;
    const match = options?.find((o) => o.toLowerCase() === (value as string).toLowerCase());
    if (match !== undefined) out[key] = match;
  }
  return out;
}

/** Field errors from a zod failure, keyed like DRF's (`items[0].volume`). */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key =
      issue.path
        .map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
        .join('') || 'body';
    (fields[key] ??= []).push(issue.message);
  }
  return fields;
}

/**
 * A value checked by its schema, the messages of a failure as sct words them (requiredMessage).
 * Parsed first without the error map, which changes only the messages: given one, zod's parse of
 * each of a million file rows left garbage that outlived V8's young generation, and the file
 * commands peaked hundreds of MB higher for it (docs/decisions/memory.md). Only a failure is
 * parsed again, with the map.
 */
export function parseWorded<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.infer<S>> {
  const fast = schema.safeParse(value);
  return fast.success ? fast : schema.safeParse(value, { error: requiredMessage });
}

/**
 * Parses with a zod schema or fails with exit 2, naming each bad field. `o.notAsked`: why fields
 * left out were not asked, where a terminal was there to ask on (notAskedReason); `o.flags`: the
 * flags of fields whose flag has another name (auth_group: --role).
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string, o: { notAsked?: string; flags?: Record<string, string> } = {}): z.infer<S> {
  const result = schema.safeParse(value, { error: requiredMessage });
  // A rule a terminal would have asked about (a PPWR statement's runs and identifier, an EUDR
  // statement's runs or identifier) names a field left out: that says why it was not asked. A
  // value given and refused is no such case.
  const given = value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const either = result.error?.issues.some((i) => i.code === 'custom' && i.path.length === 1 && given[String(i.path[0])] === undefined);
  const notAskedRule = o.notAsked !== undefined && either ? `${o.notAsked}: give the fields named above as flags (or --set KEY=VALUE, or --file)` : undefined;
  if (!result.success) throw new UsageError(`invalid ${what}`, zodFieldErrors(result.error), textAsJsonHint(result.error, value) ?? requiredHint(result.error, o) ?? notAskedRule);
  return result.data;
}

/**
 * Why a create's questions were not asked at a terminal (a dry run, CI set, its input read to
 * the end), for the hint: "values are asked only at a terminal" would send the user to the one
 * they are at. Undefined without a terminal, or where the questions were asked.
 */
export function notAskedReason(ctx: Context): string | undefined {
  if (ctx.io.canPrompt()) return undefined;
  return ctx.io.stdinIsTTY && ctx.io.stderrIsTTY ? ctx.io.noPromptReason() : undefined;
}

/**
 * Fields left out where nothing could ask for them (a script, a pipe): how to give them, by the
 * flag names the fields have (`country_code` is `--country-code`) or else `--set` and `--file`.
 */
function requiredHint(error: z.ZodError, o: { notAsked?: string; flags?: Record<string, string> }): string | undefined {
  const keys = [...new Set(error.issues.filter((i) => i.message === REQUIRED && i.path.length === 1).map((i) => String(i.path[0])))];
  if (keys.length === 0) return undefined;
  const flag = (k: string) => (o.flags && Object.hasOwn(o.flags, k) ? o.flags[k] : `--${k.replace(/_/g, '-')}`);
  return `give ${keys.map(flag).join(', ')} (or --set KEY=VALUE, or --file); ${o.notAsked ?? 'values are asked only at a terminal'}`;
}

/**
 * `--set external_id=123` sends a number (a --set value is JSON when it parses): where text was
 * expected and a number or true/false came, say how to give it as text.
 */
function textAsJsonHint(error: z.ZodError, value: unknown): string | undefined {
  for (const issue of error.issues) {
    if (issue.code !== 'invalid_type' || issue.expected !== 'string' || issue.path.length !== 1) continue;
    const key = String(issue.path[0]);
    const given = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof given === 'number' || typeof given === 'boolean') {
      return `${key} is ${typeof given === 'number' ? 'a number' : 'true/false'} here: text is in quotes, in a --file body ("${key}": "${String(given)}") and in --set, whose value is JSON when it parses (--set '${key}="${String(given)}"')`;
    }
  }
  return undefined;
}

/**
 * On a terminal, asks for each field the create schema requires and the flags, --set and --file
 * left out (as `gh issue create` asks for a title), checking each answer with the field's own
 * schema; a choice from a list for an enum. Without a terminal nothing is asked and validation
 * reports the missing fields (exit 2), so scripts never hang on a prompt.
 */
/** How a field is asked when the prompt its type gives would not do (a role offered by name). */
export type FieldAskers = Record<string, (ctx: Context) => Promise<unknown>>;

export async function promptMissing(ctx: Context, schema: z.ZodType, body: Record<string, unknown>, askers: FieldAskers = {}): Promise<void> {
  if (!ctx.io.canPrompt()) return;
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) return;
  for (const [key, field] of Object.entries(shape)) {
    if (body[key] !== undefined || field.safeParse(undefined).success) continue;
    if (Object.hasOwn(askers, key)) body[key] = await askers[key](ctx);
    else await askField(ctx, key, field, body);
  }
  // Then the fields the schema's own rules want given the answers so far (a PPWR statement
  // needs assessment_run_ids and dds_identifier): each missing one the rules name is asked too.
  const asked = new Set<string>();
  const open = (k: string) => Boolean(k && shape[k] && body[k] === undefined && !asked.has(k));
  for (;;) {
    const result = schema.safeParse(body, { error: requiredMessage });
    if (result.success) return;
    const key = result.error.issues.map((i) => String(i.path[0] ?? '')).find(open);
    if (!key) return;
    const issue = result.error.issues.find((i) => i.path[0] === key)!;
    // A rule another field meets as well (an EUDR statement: its runs, or a filed statement's
    // dds_identifier) names it in its params: the person picks which one to give.
    const others = Object.entries(((issue as { params?: { or?: Record<string, string> } }).params?.or) ?? {}).filter(([k]) => open(k));
    ctx.io.info(`${key.replace(/_/g, ' ')}: ${issue.message}`);
    const chosen = others.length === 0
      ? key
      : await ctx.prompter.select('Give which?', [{ name: key.replace(/_/g, ' '), value: key }, ...others.map(([k, name]) => ({ name, value: k }))]);
    asked.add(key).add(chosen);
    // The answer is good once the rule no longer names the field asked, nor the one it stands for.
    await askField(ctx, chosen, shape[chosen]!, body, (value) => {
      const again = schema.safeParse({ ...body, [chosen]: value }, { error: requiredMessage });
      return again.success ? true : (again.error.issues.find((i) => i.path[0] === chosen || i.path[0] === key)?.message ?? true);
    });
  }
}

/** Asks for one field: a choice for an enum, else typed text checked with the field's schema (and `rule`). */
async function askField(
  ctx: Context,
  key: string,
  field: z.ZodType,
  body: Record<string, unknown>,
  rule?: (value: unknown) => true | string,
): Promise<void> {
  const options = (field as unknown as { options?: unknown[] }).options;
  if (Array.isArray(options) && options.every((o) => typeof o === 'string')) {
    body[key] = await ctx.prompter.select(key.replace(/_/g, ' '), (options as string[]).map((o) => ({ name: o, value: o })));
    return;
  }
  const validateAnswer = (text: string) => {
    const answer = fromAnswer(field, text);
    if (!answer.ok) return answer.message;
    return rule ? rule(answer.value) : true;
  };
  const answer = fromAnswer(field, await ctx.prompter.input(`${fieldLabel(key, field)}:`, { validate: validateAnswer }));
  // The prompt only returns an accepted answer; a failure here is left to validation to word.
  if (answer.ok) body[key] = answer.value;
}

/** The prompt's label: the field's name, with the format it wants (a date, a comma list). */
function fieldLabel(key: string, field: z.ZodType): string {
  const label = key.replace(/_/g, ' ');
  const accepts = (v: unknown) => field.safeParse(v).success;
  if (accepts('2024-01-31') && !accepts('2024-01-31T00') && !accepts('text')) return `${label} (YYYY-MM-DD)`;
  if (accepts([]) && !accepts('text')) return `${label} (comma-separated)`;
  return label;
}

/** A typed answer as the field wants it: the text, else a number, else a comma list. */
function fromAnswer(field: z.ZodType, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const trimmed = text.trim();
  const candidates: unknown[] = [trimmed];
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) candidates.push(Number(trimmed));
  candidates.push(trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim()).filter(Boolean));
  // The reason to give is that of the reading the field takes (a list's: "expected a UUID"), not
  // the type error of a reading it does not ("expected a list").
  let first: string | undefined;
  let typeOnly: string | undefined;
  for (const candidate of candidates) {
    const r = field.safeParse(candidate, { error: requiredMessage });
    if (r.success) return { ok: true, value: r.data };
    const issue = r.error.issues[0];
    if (trimmed === '') first ??= 'a value is required';
    else if (issue?.code === 'invalid_type' && issue.path.length === 0) typeOnly ??= issue.message;
    else first ??= issue?.message;
  }
  return { ok: false, message: first ?? typeOnly ?? 'not a valid value' };
}
