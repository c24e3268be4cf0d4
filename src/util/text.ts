// Text in a named encoding, as the Encoding Standard reads it. Node's TextDecoder gets some of
// them wrong. Node 20, decoding in one call, reads windows-1252 (and the labels that name it:
// iso-8859-1, latin1, us-ascii) as ISO-8859-1, the bytes 0x80-0x9F (€ ’ — Š Ž œ) becoming
// invisible control characters; decoding as a stream it reads them right. And every Node reads
// three East Asian ones by ICU's tables, not the standard's: euc-kr as EUC-KR proper, not the
// Windows code page 949 the standard means (the first byte of the 8,822 syllables only 949 has
// silently dropped: 똠 read as "c"; Korean Excel and ArcGIS write 949); big5 without the Hong
// Kong characters (sent as private-use ones); gbk and big5 taking bytes they do not define as
// characters, even when told to refuse them. Those three are read by iconv-lite, loaded only then.

export interface TextReader {
  /** The encoding's name in the Encoding Standard (`windows-1252` for `latin1`). */
  readonly encoding: string;
  /** The whole text; with `fatal`, bytes that are not this encoding's text throw. */
  decode(bytes: Uint8Array): string;
}

/** The encodings (by their names in the standard) read by iconv-lite, and its names for them. */
const READ_BY_ICONV: Readonly<Record<string, string>> = { 'euc-kr': 'cp949', big5: 'big5hkscs', gbk: 'gb18030', gb18030: 'gb18030' };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether gb18030 bytes hold a four-byte sequence the standard does not define: its pointer
 * between the BMP's ranges and the supplementary planes' (39420-188999), or past U+10FFFF.
 */
function undefinedGb18030(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b < 0x81 || b > 0xfe) {
      i++;
      continue;
    }
    const second = bytes[i + 1] ?? 0;
    if (second < 0x30 || second > 0x39) {
      i += 2;
      continue;
    }
    const pointer = (b - 0x81) * 12600 + (second - 0x30) * 1260 + ((bytes[i + 2] ?? 0x81) - 0x81) * 10 + ((bytes[i + 3] ?? 0x30) - 0x30);
    if ((pointer > 39419 && pointer < 189000) || pointer > 1237575) return true;
    i += 4;
  }
  return false;
}

/**
 * The whole text of `bytes`, read as a stream that ends with them: Node 20 reads windows-1252
 * right only so.
 */
export function decodeWhole(decoder: InstanceType<typeof TextDecoder>, bytes: Uint8Array): string {
  return decoder.decode(bytes, { stream: true }) + decoder.decode();
}

/**
 * A reader of text in the encoding `label` names (any label TextDecoder knows), or undefined
 * for a label it does not know. A leading byte-order mark of a UTF is dropped.
 */
export async function textReader(label: string, options: { fatal?: boolean } = {}): Promise<TextReader | undefined> {
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label.trim(), { fatal: options.fatal ?? false });
  } catch {
    return undefined;
  }
  const fail = () => new TypeError(`The encoded data was not valid for encoding ${decoder.encoding}`);
  const iconvName = READ_BY_ICONV[decoder.encoding];
  if (iconvName !== undefined) {
    const { default: iconv } = await import('iconv-lite');
    return {
      encoding: decoder.encoding,
      decode(bytes) {
        const text = iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), iconvName);
        // U+FFFD in the text is bytes the encoding does not define (only gb18030 could write the
        // character itself, which no one types into a spreadsheet); iconv-lite reads gb18030's
        // four-byte sequences the standard leaves undefined as characters all the same.
        if (options.fatal && (text.includes('\ufffd') || LONE_SURROGATE.test(text) || (iconvName === 'gb18030' && undefinedGb18030(bytes)))) throw fail();
        return text;
      },
    };
  }
  return {
    encoding: decoder.encoding,
    decode(bytes) {
      const text = decodeWhole(decoder, bytes);
      // The five bytes windows-1252 leaves undefined (0x81 0x8D 0x8F 0x90 0x9D) the standard reads
      // as control characters: no text a person typed has one, so fatal refuses them.
      if (options.fatal && decoder.encoding === 'windows-1252' && /[\u0081\u008d\u008f\u0090\u009d]/.test(text)) throw fail();
      return text;
    },
  };
}

/**
 * Runs `read` (synchronous) with the global TextDecoder reading `reader`'s encoding by it: for a
 * package that decodes with TextDecoder itself and takes only a label (parsedbf, the DBF reader
 * of shpjs). Any other encoding is Node's own; the global is Node's again once `read` returns.
 */
export function withTextReader<T>(reader: TextReader, read: () => T): T {
  const NodeTextDecoder = globalThis.TextDecoder;
  class ReaderTextDecoder {
    readonly #reader: TextReader | InstanceType<typeof TextDecoder>;
    constructor(label = 'utf-8', options?: { fatal?: boolean }) {
      const node = new NodeTextDecoder(label, options);
      this.#reader = node.encoding === reader.encoding ? reader : node;
    }
    get encoding(): string {
      return this.#reader.encoding;
    }
    // Each call is whole text: parsedbf decodes every field in one call, and an empty call
    // after it, which ends the stream.
    decode(bytes?: Uint8Array): string {
      if (bytes === undefined) return '';
      return this.#reader instanceof NodeTextDecoder ? decodeWhole(this.#reader, bytes) : this.#reader.decode(bytes);
    }
  }
  globalThis.TextDecoder = ReaderTextDecoder as unknown as typeof TextDecoder;
  try {
    return read();
  } finally {
    globalThis.TextDecoder = NodeTextDecoder;
  }
}
