import { createHash } from 'node:crypto';

/**
 * A name-based UUID (version 5 layout) for one unit of bulk work. The same file row sent
 * again — a retry, or a rerun after an interruption — carries the same Idempotency-Key, so
 * the service answers with the object it already created instead of making a second one.
 */
export function idempotencyKey(...parts: string[]): string {
  const h = createHash('sha1').update(parts.join('\u0000')).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}
