// Durations and sizes as sct prints them, one style each for every message.
import { constants as bufferConstants } from 'node:buffer';

/** 1536 → "1.5 kB" (powers of 1000, as file managers and the EU registry count sizes). */
export function formatBytes(n: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${u === 0 ? v : v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

/**
 * The most characters one string holds (V8's limit), said as messages say it: a file read whole
 * as text, a request body written as JSON, is one string. Made when a message needs it: a
 * toLocaleString at load would set up ICU's number formats on every run (about 10 ms).
 */
export function stringLimit(): string {
  return `more than ${bufferConstants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters, about ${formatBytes(bufferConstants.MAX_STRING_LENGTH)}`;
}

/** Node's error for a string past that limit: ERR_STRING_TOO_LONG (Buffer.toString), or a bare RangeError (readFile with an encoding, JSON.stringify). */
export function isStringTooLong(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ERR_STRING_TOO_LONG' || (err instanceof RangeError && err.message === 'Invalid string length');
}

/**
 * 250 → "250ms", 1500 → "1.5s", 45_000 → "45s", 90_000 → "1m 30s", 7_500_000 → "2h 5m": exact
 * where it matters (a timeout of 1.5s), whole seconds and minutes where nobody counts tenths.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 10_000) return `${+(ms / 1000).toFixed(1)}s`;
  const secs = Math.round(ms / 1000);
  if (secs < 60) return `${secs}s`;
  if (secs < 3600) return `${Math.floor(secs / 60)}m${secs % 60 ? ` ${secs % 60}s` : ''}`;
  const mins = Math.round(secs / 60);
  const hours = Math.floor(mins / 60);
  // Days past two of them: "366d", not "8784h"; to the hour, rounded up (a wait is never told
  // as shorter than it is).
  if (hours >= 48) {
    const whole = Math.ceil(secs / 3600);
    return `${Math.floor(whole / 24)}d${whole % 24 ? ` ${whole % 24}h` : ''}`;
  }
  return `${hours}h${mins % 60 ? ` ${mins % 60}m` : ''}`;
}

/**
 * A wait as it is announced or counted down: whole seconds, rounded up ("59s", "1m 30s"); past an
 * hour, told to the minute, whole minutes rounded up ("1h 31m" for 1h 30m 29s).
 */
export function formatWait(ms: number): string {
  const unit = ms > 3_600_000 ? 60_000 : 1000;
  return formatDuration(Math.ceil(ms / unit) * unit);
}

/** 1, 'request' → "1 request"; 3 → "3 requests". */
export function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}

/** 1, 'origins' → "1 origin"; 3 → "3 origins" (a plural noun, as the bulk runs name theirs). */
export function countOf(n: number, nouns: string): string {
  return `${n} ${n === 1 ? singular(nouns) : nouns}`;
}

/** A plural noun ("orders", "countries") for one of them ("order", "country"). */
export function singular(nouns: string): string {
  return nouns.replace(/ies$/, 'y').replace(/s$/, '');
}

/** "a, b or c": a list of choices in a sentence. */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}
