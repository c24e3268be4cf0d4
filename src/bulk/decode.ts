// The bytes of an input file as UTF-8 text, by the rules of "Files from spreadsheets": a
// byte-order mark says the encoding, a file without one must be valid UTF-8, and any other
// encoding is named by the user. Never a guess: a wrong guess would send changed text.
import { isUtf8 } from 'node:buffer';
import { UsageError } from '../errors.js';
import { textReader, type TextReader } from '../util/text.js';

const ENCODING_HINT = '--encoding windows-1252';

/**
 * UTF-8 bytes without a byte-order mark. A valid UTF-8 file is returned as it is (no copy), so
 * the common case costs one validity scan.
 */
export async function utf8Input(bytes: Buffer, name: string, encoding?: string): Promise<Buffer> {
  const kind = binaryKind(bytes);
  if (kind) throw notReadable(name, kind);
  const bom = byteOrderMark(bytes);
  if (encoding !== undefined) {
    const label = encoding.trim().toLowerCase();
    const decoder = await textReader(label, { fatal: true });
    if (decoder === undefined) {
      throw new UsageError(`--encoding ${encoding}: not an encoding sct knows (e.g. utf-8, windows-1252, iso-8859-1, iso-8859-15, utf-16le)`);
    }
    if (bom && bom.encoding !== decoder.encoding) {
      throw new UsageError(`${name} starts with a ${bom.encoding} byte-order mark, but --encoding ${encoding} was given`);
    }
    if (!decoder.encoding.startsWith('utf-')) refuseUtf8(bytes, name, encoding);
    return decoded(decoder, bytes, name, `--encoding ${encoding}`);
  }
  if (bom?.encoding === 'utf-8') return check(bytes.subarray(3), name);
  if (bom) return decoded((await textReader(bom.encoding, { fatal: true }))!, bytes, name, `its ${bom.encoding} byte-order mark`);
  // ASCII saved as UTF-16 is valid UTF-8, every other byte a NUL: asked first.
  if (looksLikeUtf16(bytes)) throw notReadable(name, UTF16_WITHOUT_BOM);
  if (isUtf8(bytes)) return bytes;
  // A NUL byte never occurs in text of a byte-wide encoding.
  if (bytes.subarray(0, 4096).includes(0)) throw notReadable(name, `a binary file (or ${UTF16_WITHOUT_BOM})`);
  return check(bytes, name);
}

const UTF16_WITHOUT_BOM = 'UTF-16 text without a byte-order mark: give --encoding utf-16le';

/**
 * Text of mostly Latin letters in UTF-16: in its first 4 kB, the bytes at even offsets (big
 * endian) or at odd ones (little endian) nearly all NULs, the others hardly any. A UTF-8 file
 * with a NUL in a cell is not taken for one.
 */
function looksLikeUtf16(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 4096);
  if (head.length < 4) return false;
  const nuls = [0, 0];
  for (let i = 0; i < head.length; i++) if (head[i] === 0) nuls[i & 1]++;
  const half = head.length / 2;
  return (nuls[1] >= 0.6 * half && nuls[0] <= 0.05 * half) || (nuls[0] >= 0.6 * half && nuls[1] <= 0.05 * half);
}

/** A workbook saved with a password (an .xlsx so saved is an encrypted OLE file, an .ods a ZIP of encrypted parts). */
export const PASSWORD_PROTECTED = 'a workbook saved with a password';

/** A file that is neither a CSV file nor a workbook, said as what it looks like. */
export function notReadable(name: string, kind: string): UsageError {
  if (kind === PASSWORD_PROTECTED) return new UsageError(`${name} is ${kind}: sct cannot open it`, undefined, 'save it without a password, or save the sheet as CSV (UTF-8)');
  return new UsageError(`${name} is not a CSV file or a workbook: it looks like ${kind}`, undefined, 'save it as CSV (UTF-8), .xlsx or .ods from the program that made it');
}

/** A ZIP's first bytes: an .xlsx or .ods workbook is one. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function byteOrderMark(bytes: Buffer): { encoding: 'utf-8' | 'utf-16le' | 'utf-16be' } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: 'utf-8' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: 'utf-16be' };
  return undefined;
}

function check(bytes: Buffer, name: string): Buffer {
  if (isUtf8(bytes)) return bytes;
  throw new UsageError(
    `${name} line ${firstBadLine(bytes)}: not UTF-8 text (a spreadsheet program saved it in another encoding)`,
    undefined,
    crLinesOnly(bytes)
      ? // Excel for Mac's "CSV (Macintosh)": lines ended by CR alone, text in Mac Roman.
        'give its encoding: --encoding macintosh (Excel for Mac\'s "CSV (Macintosh)", whose lines end in CR alone), or windows-1252, iso-8859-15, …'
      : `give its encoding: ${ENCODING_HINT} (Excel and LibreOffice on Windows), or iso-8859-15, utf-16le, …`,
  );
}

/** Whether the lines end in CR alone (no LF anywhere), as old Mac programs write them. */
function crLinesOnly(bytes: Buffer): boolean {
  return bytes.includes(0x0d) && !bytes.includes(0x0a);
}

function decoded(decoder: TextReader, bytes: Buffer, name: string, by: string): Buffer {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new UsageError(`${name}: not valid ${decoder.encoding} text (read by ${by})`);
  }
  // TextDecoder drops a leading byte-order mark itself (ignoreBOM false).
  return Buffer.from(text, 'utf8');
}

/**
 * A file named to be in a one-byte code page (windows-1252, iso-8859-15) that is UTF-8 text of
 * a Latin-script language is UTF-8: read in the code page, each accented letter would become two
 * (`Café` sent as `CafÃ©`). A script that always passes --encoding for an old system's exports
 * meets this the day that system writes UTF-8. Text in a code page is seldom valid UTF-8 at all
 * (`ß”` is, as an N'Ko letter), and then hardly ever as Latin letters only: such a file is
 * read as the flag says.
 */
function refuseUtf8(bytes: Buffer, name: string, encoding: string): void {
  if (!readsAsLatinUtf8(bytes)) return;
  const beyondAscii = bytes.findIndex((b) => b >= 0x80);
  throw new UsageError(
    `${name} line ${lineAt(bytes, beyondAscii)} is UTF-8 text (accented letters as UTF-8 writes them), not ${encoding}: read as ${encoding}, its letters would reach the service changed`,
    undefined,
    'leave out --encoding (or give --encoding utf-8)',
  );
}

/**
 * Whether the bytes are valid UTF-8 whose letters beyond ASCII are all Latin (accented
 * letters, Latin Extended), the typographic punctuation of a word processor (’ “ ” – — …),
 * € or ™: what a Latin-script spreadsheet saved as UTF-8 holds.
 */
export function readsAsLatinUtf8(bytes: Buffer): boolean {
  if (!bytes.some((b) => b >= 0x80) || !isUtf8(bytes)) return false;
  return /^[\u0000-\u007f\u00a0-\u024f\u1e00-\u1eff\u2010-\u203a\u20ac\u2122\ufeff]*$/.test(bytes.toString('utf8'));
}

/** The first line (1-based) whose bytes are not valid UTF-8. */
function firstBadLine(bytes: Buffer): number {
  let start = 0;
  for (const end of lineEnds(bytes)) {
    if (!isUtf8(bytes.subarray(start, end.at))) return end.line;
    start = end.next;
  }
  return 1;
}

/** The line (1-based) of the byte at `offset`. */
function lineAt(bytes: Buffer, offset: number): number {
  for (const end of lineEnds(bytes)) if (offset < end.next) return end.line;
  return 1;
}

/**
 * Where each line ends: LF, CR LF, or CR alone (Excel for Mac's "CSV (Macintosh)"), as the
 * reader counts lines; the last line ends at the end of the bytes.
 */
function* lineEnds(bytes: Buffer): Generator<{ line: number; at: number; next: number }> {
  let line = 1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b !== 0x0a && b !== 0x0d) continue;
    const next = b === 0x0d && bytes[i + 1] === 0x0a ? i + 2 : i + 1;
    yield { line, at: i, next };
    line++;
    i = next - 1;
  }
  yield { line, at: bytes.length, next: bytes.length };
}

const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/** What a binary file looks like, by first bytes no text file starts with; undefined for any other file. */
function binaryKind(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 8).toString('latin1');
  if (head.startsWith('%PDF-')) return 'a PDF';
  if (head.startsWith('\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1')) {
    // An .xlsx saved with a password is an OLE file too, holding the workbook as "EncryptedPackage".
    return bytes.includes(ENCRYPTED_PACKAGE) ? PASSWORD_PROTECTED : 'an old Excel (.xls) workbook';
  }
  if (head.startsWith('\x89PNG\r\n\x1a\n')) return 'a PNG image';
  if (head.startsWith('\xff\xd8\xff')) return 'a JPEG image';
  if (head.startsWith('\x1f\x8b')) return 'a gzip archive';
  return markupKind(bytes);
}

/**
 * What a text file made of markup looks like: web applications save HTML tables as `.xls`, and
 * Excel and LibreOffice can save XML spreadsheets. No CSV header starts with `<!doctype`,
 * `<html`, `<table` or `<?xml`.
 */
function markupKind(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 2048).toString('latin1').replace(/^\xef\xbb\xbf/, '').trimStart().toLowerCase();
  if (/^<(!doctype html|html|table)[\s>]/.test(head)) return 'an HTML page';
  if (!head.startsWith('<?xml')) return undefined;
  if (head.includes('urn:schemas-microsoft-com:office:spreadsheet')) return 'an Excel 2003 XML spreadsheet';
  if (head.includes('urn:oasis:names:tc:opendocument')) return 'a flat OpenDocument (.fods) spreadsheet';
  return 'an XML file';
}
