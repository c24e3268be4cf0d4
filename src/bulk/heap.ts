// A bulk file of a million rows must be read, and sent, in under 500 MB ("When the world
// misbehaves": Memory). What such a run holds is about 250 MB at its end; what it spends,
// request by request, is short-lived but partly outlives a scavenge. V8 lets the old space grow
// to up to four times what was live at its last full collection before it collects again, so
// that garbage piled up to 650–950 MB before a full collection came. Held to a quarter more,
// the same run peaks at about 435 MB for 5–10% more CPU (docs/decisions/memory.md).
import { setFlagsFromString } from 'node:v8';

/**
 * From this size of file on. A smaller heap held to a quarter more is collected again and again
 * for little: a run of 2,000 rows took 40 ms more (272 against 228 ms), and a file under this
 * size (about 300,000 rows) peaks under 500 MB without it.
 */
const LARGE_FILE = 16_000_000;

let held = false;

/** For a file of `bytes`, asks V8 to collect before the old space grows a quarter past what was live. */
export function holdHeapClose(bytes: number): void {
  if (held || bytes < LARGE_FILE) return;
  held = true;
  // Read by V8 at each full collection, when it sets the next limit; nothing else changes.
  setFlagsFromString('--heap-growing-percent=25');
}
