// Reading a bulk input file: CSV with a header row, every record tagged with the line it
// came from, so every error can name the file, the line and the column.
import { parse } from 'csv-parse';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { UsageError, type FieldErrors } from '../errors.js';
import { parseInteger } from '../commands/shared/flags.js';
import { REQUIRED } from '../api/schemas/common.js';

export interface CsvRow {
  /** 1-based line number in the file (the header is line 1). */
  line: number;
  values: Record<string, string>;
}

export interface CsvFile {
  name: string;
  columns: string[];
  rows: CsvRow[];
}

/** Reads the whole file (`-` for stdin) and checks that the required columns are there. */
export async function readCsv(file: string, stdin: Readable, required: string[] = []): Promise<CsvFile> {
  const name = file === '-' ? 'stdin' : basename(file);
  const source = file === '-' ? stdin : createReadStream(file);
  let headerError: UsageError | undefined;
  const parser = source.pipe(
    parse({
      columns: (header: string[]) => {
        const names = header.map(normalizeHeader);
        headerError = headerProblem(name, header, names);
        if (headerError) throw headerError;
        return names;
      },
      bom: true,
      trim: true,
      skip_empty_lines: true,
      info: true,
      relax_column_count: false,
    }),
  );
  // pipe() does not forward a source error (a missing file): hand it to the parser, where the
  // loop below turns it into a usage error instead of an unhandled 'error' event.
  source.on('error', (err: Error) => parser.destroy(err));
  const rows: CsvRow[] = [];
  let columns: string[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number; columns: { name: string }[] | boolean } }>) {
      if (columns.length === 0 && Array.isArray(info.columns)) columns = info.columns.map((c) => c.name);
      rows.push({ line: info.lines, values: record });
    }
  } catch (err) {
    if (headerError) throw headerError;
    const e = err as NodeJS.ErrnoException & { lines?: number };
    if (e.code === 'ENOENT' || e.code === 'EACCES' || e.code === 'EISDIR') throw new UsageError(`cannot read ${file}: ${e.message}`);
    throw new UsageError(`${name}${e.lines ? ` line ${e.lines}` : ''}: ${e.message.replace(/^Invalid Record Length: /, '')}`);
  }
  if (rows.length === 0) throw new UsageError(`${name} has no data rows (a header row and at least one row are needed)`);
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new UsageError(`${name}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (found: ${columns.join(', ') || 'none'})`);
  }
  return { name, columns, rows };
}

/** Header names are matched case-insensitively, with spaces and dashes read as underscores. */
function normalizeHeader(h: string): string {
  return h.trim().toLowerCase().replace(/[\s-]+/g, '_');
}

/**
 * Two headers that read as the same column (`type` and `Type`) would leave one of them silently
 * ignored, and a nameless one cannot be matched: both are refused before any row is read.
 */
function headerProblem(file: string, raw: string[], names: string[]): UsageError | undefined {
  const blank = names.findIndex((n) => n === '');
  if (blank >= 0 && names.length > 1) return new UsageError(`${file} line 1: column ${blank + 1} has no name`);
  for (let i = 0; i < names.length; i++) {
    const first = names.indexOf(names[i]);
    if (first !== i) {
      return new UsageError(`${file} line 1: columns ${first + 1} ("${raw[first].trim()}") and ${i + 1} ("${raw[i].trim()}") are the same column, ${names[i]}`);
    }
  }
  return undefined;
}

/**
 * Columns the command does not read (names, notes) are allowed, but said: a misspelt header
 * would otherwise drop its data without a word. `used` are the headers read (aliases included),
 * `known` the names to suggest.
 */
export function warnIgnoredColumns(io: { warn(line: string): void }, csv: CsvFile, used: readonly string[], known: readonly string[] = used): void {
  const ignored = csv.columns.filter((c) => !used.includes(c));
  if (ignored.length) io.warn(`${csv.name}: ignoring column${ignored.length > 1 ? 's' : ''} ${ignored.join(', ')} (known: ${known.join(', ')})`);
}

/** Collects every row error before failing, so one run shows all that must be fixed. */
export class RowErrors {
  private readonly errors: { line: number; column?: string; message: string }[] = [];
  constructor(private readonly file: string) {}

  add(line: number, column: string | undefined, message: string): void {
    this.errors.push({ line, column, message });
  }

  get size(): number {
    return this.errors.length;
  }

  /** Exit 2 with every problem listed (`line 4, volume: expected a number`); nothing was sent. */
  throwIfAny(): void {
    if (this.errors.length === 0) return;
    const fields: FieldErrors = {};
    const shown = this.errors.slice(0, 50);
    for (const e of shown) (fields[`line ${e.line}${e.column ? `, ${e.column}` : ''}`] ??= []).push(e.message);
    const more = this.errors.length - shown.length;
    const rows = new Set(this.errors.map((e) => e.line)).size;
    throw new UsageError(
      `${this.file}: ${rows} invalid row${rows > 1 ? 's' : ''}; nothing was sent`,
      fields,
      more > 0 ? `${more} more error${more > 1 ? 's' : ''} not shown` : undefined,
    );
  }
}

/** A required id cell, or undefined after recording what is wrong with it. */
export function idCell(raw: string | undefined, line: number, column: string, errors: RowErrors): number | undefined {
  const text = raw?.trim() ?? '';
  if (!text) {
    errors.add(line, column, REQUIRED);
    return undefined;
  }
  try {
    return parseInteger(text, column);
  } catch {
    errors.add(line, column, `"${text}" is not a whole number 0..2147483647`);
    return undefined;
  }
}
