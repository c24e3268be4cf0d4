// A ZIP's files checked against the CRC-32 its central directory records for each. Neither reader
// sct uses checks it (fflate for KMZ and zipped Shapefiles, SheetJS for workbooks): a copy damaged
// on a disk or in a download inflates, or is read stored, into other text without a word, and that
// text would be sent as if the file said it.
import { crc32 } from 'node:zlib';
import { unzipSync } from 'fflate';

const CENTRAL_FILE = 0x02014b50;
const END_OF_DIRECTORY = 0x06054b50;

/**
 * The CRC-32 of each file of the archive, by its name as fflate gives it (UTF-8 when its flag
 * says so, else Latin-1); undefined when the directory cannot be read here (none, or ZIP64,
 * whose sizes and offsets live elsewhere): the readers then say what they say of it.
 */
export function recordedChecksums(bytes: Uint8Array): Map<string, number> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last 22 bytes, or comes before a comment of up to 65,535.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === END_OF_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff) return undefined;
  const crcs = new Map<string, number>();
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_FILE) return undefined;
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const name = Buffer.from(bytes.buffer, bytes.byteOffset + at + 46, nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    crcs.set(name, view.getUint32(at + 16, true));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return crcs;
}

/** The first of the files given (inflated) whose bytes do not match the checksum recorded for it. */
export function mismatchedFile(files: Record<string, Uint8Array>, crcs: ReadonlyMap<string, number>): string | undefined {
  for (const [name, data] of Object.entries(files)) {
    const recorded = crcs.get(name);
    if (recorded !== undefined && crc32(data) !== recorded) return name;
  }
  return undefined;
}

/**
 * The first file of the archive whose bytes do not match its checksum, inflated one at a time (a
 * workbook's sheet may be hundreds of MB of XML: never all of them at once).
 */
export function damagedFile(bytes: Uint8Array): string | undefined {
  const crcs = recordedChecksums(bytes);
  if (!crcs) return undefined;
  for (const name of crcs.keys()) {
    if (name.endsWith('/')) continue;
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(bytes, { filter: (f) => f.name === name });
    } catch {
      // Not inflatable at all: the reader says so in its own words.
      return undefined;
    }
    const bad = mismatchedFile(files, crcs);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/** How a damaged archive is said ("… is " before it), whichever command reads it. */
export function damagedText(file: string): string {
  return `damaged: its part ${file} does not match the checksum the archive records (CRC-32); copy or download it again`;
}
