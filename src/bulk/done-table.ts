// The units a journal has on record as done, kept small enough that the rerun of a million-row
// run stays under the spec's 500 MB (docs/decisions/memory.md, "The rerun of a million rows"):
// a unit's key is kept as a 128-bit digest (SHA-256, cut) in a typed array, not as its string
// behind a Map entry, and its id, when it is a UUID or a whole number, as 16 bytes beside it.
// 40 to 60 bytes a unit, where the strings and the Map took about 190.
//
// A digest stands for its key: two keys with one digest would make a row never sent look done.
// At 128 bits, a million keys collide with a chance of about 1 in 10^27. The hash reads a key as
// UTF-8, where every lone surrogate becomes U+FFFD: a key that is not well-formed UTF-16 (a
// workbook cell can hold one) is kept as itself, in a Map beside the table.
import { hash } from 'node:crypto';

/** How a unit's id is kept. */
const ID_NONE = 0;
/** A lowercase UUID, as 4 words. */
const ID_UUID = 1;
/** A whole number up to 2^53, as two words. */
const ID_INT = 2;
/** Anything else, in `otherIds`. */
const ID_OTHER = 3;
/** The unit's record no longer holds (a later `failed`): its slot stays, its entry says absent. */
const GONE = 4;

/** The characters of a UUID as it is made back, before they become one string. */
const UUID_TEXT = Buffer.alloc(36);
/** The ASCII code of each hex digit. */
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const TWO_32 = 2 ** 32;

export interface DoneRecord {
  id?: string | number;
  sent?: string;
}

export class DoneTable {
  /** The digest of each entry's key, 4 words an entry. */
  private keys = new Int32Array(4 * 256);
  /** Each entry's id, packed as its kind says (4 words an entry). */
  private ids = new Int32Array(4 * 256);
  private kinds = new Uint8Array(256);
  /** The key of the request each entry went in: the entries of one request share one string. */
  private readonly sent: (string | undefined)[] = [];
  private readonly otherIds = new Map<number, string | number>();
  /** Open addressing, linear probing: entry + 1, or 0 for an empty slot. */
  private slots = new Int32Array(1024);
  private entries = 0;
  /** Entries that are done (not GONE). */
  size = 0;
  /** Words of the digest last worked out, so a lookup allocates nothing. */
  private readonly d = new Int32Array(4);
  /** The records of keys that are not well-formed UTF-16, by the key itself. */
  private readonly illFormed = new Map<string, DoneRecord>();

  set(key: string, id: string | number | undefined, sent: string | undefined): void {
    if (!key.isWellFormed()) {
      if (!this.illFormed.has(key)) this.size++;
      this.illFormed.set(key, { id, sent });
      return;
    }
    let e = this.find(key);
    if (e < 0) {
      e = this.add();
      this.keys.set(this.d, 4 * e);
      this.place(e);
    }
    if (this.kinds[e] === GONE) this.size++;
    this.otherIds.delete(e);
    this.kinds[e] = this.pack(e, id);
    this.sent[e] = sent;
  }

  get(key: string): DoneRecord | undefined {
    if (!key.isWellFormed()) {
      const r = this.illFormed.get(key);
      return r && { ...r };
    }
    const e = this.find(key);
    if (e < 0 || this.kinds[e] === GONE) return undefined;
    return { id: this.unpack(e), sent: this.sent[e] };
  }

  has(key: string): boolean {
    if (!key.isWellFormed()) return this.illFormed.has(key);
    const e = this.find(key);
    return e >= 0 && this.kinds[e] !== GONE;
  }

  delete(key: string): void {
    if (!key.isWellFormed()) {
      if (this.illFormed.delete(key)) this.size--;
      return;
    }
    const e = this.find(key);
    if (e < 0 || this.kinds[e] === GONE) return;
    this.kinds[e] = GONE;
    this.otherIds.delete(e);
    this.sent[e] = undefined;
    this.size--;
  }

  /** The entry of a key, or -1; leaves the key's digest in `d`. */
  private find(key: string): number {
    const s = hash('sha256', key, 'binary');
    const d = this.d;
    for (let w = 0; w < 4; w++) {
      const at = 4 * w;
      d[w] = s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8) | (s.charCodeAt(at + 2) << 16) | (s.charCodeAt(at + 3) << 24);
    }
    const mask = this.slots.length - 1;
    for (let i = d[0]! & mask; ; i = (i + 1) & mask) {
      const slot = this.slots[i]!;
      if (slot === 0) return -1;
      const e = slot - 1;
      const k = 4 * e;
      if (this.keys[k] === d[0] && this.keys[k + 1] === d[1] && this.keys[k + 2] === d[2] && this.keys[k + 3] === d[3]) return e;
    }
  }

  /** A new entry, the arrays grown (doubled) when full. */
  private add(): number {
    const e = this.entries++;
    if (e === this.kinds.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, n: number): T => {
        const b = new (a.constructor as new (n: number) => T)(n);
        b.set(a);
        return b;
      };
      this.keys = grow(this.keys, 2 * this.keys.length);
      this.ids = grow(this.ids, 2 * this.ids.length);
      this.kinds = grow(this.kinds, 2 * this.kinds.length);
    }
    this.kinds[e] = GONE;
    return e;
  }

  /** Puts entry e in its slot; the slots kept at most half full. */
  private place(e: number): void {
    if (2 * this.entries > this.slots.length) {
      this.slots = new Int32Array(2 * this.slots.length);
      for (let i = 0; i < this.entries - 1; i++) this.slotOf(i);
    }
    this.slotOf(e);
  }

  private slotOf(e: number): void {
    const mask = this.slots.length - 1;
    let i = this.keys[4 * e]! & mask;
    while (this.slots[i] !== 0) i = (i + 1) & mask;
    this.slots[i] = e + 1;
  }

  private pack(e: number, id: string | number | undefined): number {
    const at = 4 * e;
    if (id === undefined) return ID_NONE;
    if (typeof id === 'string' && packUuid(id, this.ids, at)) return ID_UUID;
    if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) {
      this.ids[at] = id % TWO_32 | 0;
      this.ids[at + 1] = Math.floor(id / TWO_32) | 0;
      return ID_INT;
    }
    this.otherIds.set(e, id);
    return ID_OTHER;
  }

  private unpack(e: number): string | number | undefined {
    const at = 4 * e;
    switch (this.kinds[e]) {
      case ID_UUID:
        return unpackUuid(this.ids, at);
      case ID_INT:
        return (this.ids[at + 1]! >>> 0) * TWO_32 + (this.ids[at]! >>> 0);
      case ID_OTHER:
        return this.otherIds.get(e);
      default:
        return undefined;
    }
  }
}

/**
 * A lowercase UUID (8-4-4-4-12 hex digits) into 4 words at `at`; false for any other string (an
 * uppercase one among them: an id comes back spelt as the service sent it), the words then
 * meaning nothing.
 */
function packUuid(id: string, into: Int32Array, at: number): boolean {
  if (id.length !== 36) return false;
  let word = 0;
  let digits = 0;
  let w = at;
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return false;
      continue;
    }
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (v < 0) return false;
    word = (word << 4) | v;
    if (++digits === 8) {
      into[w++] = word;
      word = 0;
      digits = 0;
    }
  }
  return true;
}

/**
 * The UUID packed at `at`, as one flat string: put together from pieces, a string is a tree of
 * them (about 400 bytes for 36 characters), and a rerun keeps one for each of a million rows.
 */
function unpackUuid(words: Int32Array, at: number): string {
  let o = 0;
  for (let w = 0; w < 4; w++) {
    const word = words[at + w]!;
    for (let shift = 28; shift >= 0; shift -= 4) {
      if (o === 8 || o === 13 || o === 18 || o === 23) UUID_TEXT[o++] = 45;
      UUID_TEXT[o++] = HEX_DIGITS[(word >>> shift) & 15]!;
    }
  }
  return UUID_TEXT.toString('latin1', 0, 36);
}
