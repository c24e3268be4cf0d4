// A bulk file of a million rows must be read, and sent, in under 500 MB ("When the world
// misbehaves": Memory). What such a run holds is about 250 MB at its end; what it spends,
// request by request, is short-lived but partly outlives a scavenge. V8 lets the old space grow
// to up to four times what was live at its last full collection before it collects again, so
// that garbage piled up to 650–950 MB before a full collection came. Held to a quarter more,
// the same run peaks at about 435 MB for about 5% more CPU (docs/decisions/memory.md).
import { setFlagsFromString } from 'node:v8';

let held = false;

/** Asks V8 to collect before the old space grows a quarter past what was live. */
export function holdHeapClose(): void {
  if (held) return;
  held = true;
  // Read by V8 at each full collection, when it sets the next limit; nothing else changes.
  setFlagsFromString('--heap-growing-percent=25');
}
