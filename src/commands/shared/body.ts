// Request bodies for create/update: --file (JSON, - for stdin), then named flags, then
// repeatable --set key=value (dotted keys nest); validated with the resource's zod schema.
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { Readable } from 'node:stream';
import { UsageError, type FieldErrors } from '../../errors.js';
import { parseLooseValue, setDotted, splitKeyValue } from './flags.js';
import { requiredMessage } from '../../api/schemas/common.js';

export interface BodyFlags {
  file?: string;
  set?: string[];
}

export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJsonFile(file: string, stdin: Readable): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readAll(stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${file === '-' ? 'stdin' : file} is not valid JSON: ${(err as Error).message}`);
  }
}

export async function buildBody(
  flags: BodyFlags,
  named: Record<string, unknown>,
  stdin: Readable,
): Promise<Record<string, unknown>> {
  let body: Record<string, unknown> = {};
  if (flags.file) {
    const parsed = await readJsonFile(flags.file, stdin);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError(`${flags.file === '-' ? 'stdin' : flags.file} must hold one JSON object`);
    }
    body = parsed as Record<string, unknown>;
  }
  for (const [k, v] of Object.entries(named)) if (v !== undefined) body[k] = v;
  for (const pair of flags.set ?? []) {
    const [k, v] = splitKeyValue(pair, '--set');
    setDotted(body, k, parseLooseValue(v));
  }
  return body;
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

/** Parses with a zod schema or fails with exit 2, naming each bad field. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const result = schema.safeParse(value, { error: requiredMessage });
  if (!result.success) throw new UsageError(`invalid ${what}`, zodFieldErrors(result.error));
  return result.data;
}
