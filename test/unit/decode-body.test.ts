// decodeBody (src/api/transport.ts): a compressed answer read as its Content-Encoding says. A
// small one that has all come is decoded in one call, a larger one as it streams; the reader
// must not be able to tell which: same bytes, same errors, same counts, same cap behaviour.
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { DecodeError, decodeBody } from '../../src/api/transport.js';

const JSON_TEXT = Buffer.from(JSON.stringify({ results: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `Lot ${i}`, note: 'é'.repeat(i % 7) })) }));

/** `bytes` as a body arriving in pieces of `piece` bytes, asynchronously as a socket gives them. */
function body(bytes: Buffer, piece = bytes.length || 1): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += piece) parts.push(bytes.subarray(i, i + piece));
  return Readable.from(parts, { objectMode: false });
}

async function readAll(r: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of r) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

const ENCODINGS = {
  gzip: (b: Buffer) => zlib.gzipSync(b),
  br: (b: Buffer) => zlib.brotliCompressSync(b),
  deflate: (b: Buffer) => zlib.deflateSync(b),
  'deflate (raw)': (b: Buffer) => zlib.deflateRawSync(b),
} as const;

describe('decodeBody', () => {
  for (const [name, encode] of Object.entries(ENCODINGS)) {
    const header = name.startsWith('deflate') ? 'deflate' : name;
    for (const [size, raw] of [
      ['small', JSON_TEXT],
      // Random bytes do not compress: over 64 KB on the wire, so decoded as it streams.
      ['large', Buffer.concat([JSON_TEXT, zlib.gzipSync(Buffer.alloc(0)), Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 251))])],
    ] as const) {
      it(`${name}, ${size}: the exact bytes, with the wire and decoded sizes counted`, async () => {
        const wire = encode(raw);
        const d = await decodeBody(body(wire, 1000), { 'content-encoding': header });
        expect(d.encoding).toBe(header);
        const out = await readAll(d.body);
        expect(out.equals(raw)).toBe(true);
        expect(d.wireBytes()).toBe(wire.length);
        expect(d.decodedBytes()).toBe(raw.length);
      });
    }
  }

  it('a held answer that grows past the size decoded at once waits for its reader on one listener, not one per piece', async () => {
    // 30 MB of one letter: about 30 KB of gzip, held in 1 KB pieces until 64 KB, then streamed.
    const wire = zlib.gzipSync(Buffer.alloc(30_000_000, 0x61), { level: 9 });
    const bomb = Buffer.concat([wire, wire, wire]).subarray(0, 70_000);
    const d = await decodeBody(body(bomb, 1000), { 'content-encoding': 'gzip' });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      // A slow reader: the decoder fills, and the wire must wait for it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      let n = 0;
      for await (const c of d.body) if ((n += (c as Buffer).length) > 5_000_000) break;
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('a small gzip answer cut short is a DecodeError, as a large one is', async () => {
    for (const raw of [JSON_TEXT, Buffer.alloc(3_000_000, 0x61)]) {
      const wire = zlib.gzipSync(raw);
      const d = await decodeBody(body(wire.subarray(0, wire.length - 10), 4096), { 'content-encoding': 'gzip' });
      const err = await readAll(d.body).then(() => undefined, (e: unknown) => e);
      expect(err, `${raw.length} bytes`).toBeInstanceOf(DecodeError);
      expect((err as Error).message).toMatch(/^the answer could not be decoded \(gzip: unexpected end of file\)$/);
    }
  });

  it('a small corrupt answer is a DecodeError through the caller wrap', async () => {
    const wire = zlib.gzipSync(JSON_TEXT);
    for (let i = 40; i < 60; i++) wire[i] ^= 0xa5;
    const d = await decodeBody(body(wire), { 'content-encoding': 'gzip' }, (e) => new Error(`wrapped: ${e.message}`));
    await expect(readAll(d.body)).rejects.toThrow(/^wrapped: the answer could not be decoded \(gzip: /);
  });

  it('a few KB that inflate to 100 MB still reach the reader a piece at a time, never as one buffer', async () => {
    const wire = zlib.brotliCompressSync(Buffer.alloc(100 * 1024 * 1024, 0x20));
    expect(wire.length).toBeLessThan(64 * 1024);
    const d = await decodeBody(body(wire), { 'content-encoding': 'br' });
    let biggest = 0;
    let total = 0;
    for await (const c of d.body) {
      biggest = Math.max(biggest, (c as Buffer).length);
      total += (c as Buffer).length;
    }
    expect(total).toBe(100 * 1024 * 1024);
    expect(biggest).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(d.decodedBytes()).toBe(total);
  });

  it('an empty gzip body ends as it did when decoded as a stream', async () => {
    const streamed = await new Promise<string>((resolve) => {
      const g = zlib.createGunzip();
      g.on('error', (e) => resolve(`error: ${e.message}`));
      g.on('data', () => {});
      g.on('end', () => resolve('end'));
      g.end();
    });
    const d = await decodeBody(body(Buffer.alloc(0)), { 'content-encoding': 'gzip' });
    const got = await readAll(d.body).then(
      () => 'end',
      (e: Error) => `error: ${e.message.replace(/^the answer could not be decoded \(gzip: (.*)\)$/, '$1')}`,
    );
    expect(got).toBe(streamed);
  });

  it('an answer sent as it is passes through untouched', async () => {
    const raw = body(JSON_TEXT);
    const d = await decodeBody(raw, {});
    expect(d.body).toBe(raw);
    expect(d.encoding).toBeUndefined();
  });
});
