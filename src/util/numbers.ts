// Numbers and durations given on the command line or in a file's cells: the bottom layer, so the
// reader of bulk files and the context use them without reaching up into the commands.
import { UsageError } from '../errors.js';

/** The largest id the service gives (its ids are 32-bit signed integers). */
export const ID_MAX = 2_147_483_647;

/** Whether text is an id as written: digits only, 0..ID_MAX. */
export function isId(text: string): boolean {
  return /^\d+$/.test(text) && Number(text) <= ID_MAX;
}

/** "10m", "90s", "1h", "500ms" or plain seconds. */
export function parseDuration(value: string, flag: string, o: { allowZero?: boolean } = {}): number {
  // Days too: a long wait is said in days ("3d 4h"), and may be allowed in them.
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(value.trim());
  if (!m) throw new UsageError(`invalid ${flag} "${value}": use e.g. 30s, 10m, 1h`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const ms = Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit]!);
  // 0 would switch the limit off (and 0.0001s rounds to 0): a limit is a positive time.
  if (ms < 1 && !(o.allowZero && n === 0)) throw new UsageError(`invalid ${flag} "${value}": must be ${o.allowZero ? '0 or ' : 'more than 0 ('}at least 1ms${o.allowZero ? '' : ')'}`);
  // A timer holds at most 2^31-1 ms (24.8 days); a longer one fires at once. Longer than that is
  // meant as "no limit", which the longest timer is.
  return Math.min(ms, MAX_TIMER_MS);
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export function parseInteger(value: string | undefined, flag: string, min = 0, max = ID_MAX): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(String(value).trim())) throw new UsageError(`invalid ${flag} "${value}": expected a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`invalid ${flag} ${value}: expected ${min}..${max}`);
  return n;
}

/**
 * Whether `n` is the value the decimal text says, digit for digit: `0.30000000000000004`,
 * `1250.500` and `1.5e3` are; `12345678901234567890` (read as …67000) is not. A number sent as
 * JSON is the double, so a text that names another value would reach the service changed.
 */
export function isExactly(text: string, n: number): boolean {
  const a = canonicalDecimal(text);
  const b = canonicalDecimal(String(n));
  return a !== undefined && b !== undefined && a === b;
}

/** A decimal's significant digits and where its point falls (`0.D × 10^E`), sign aside. */
function canonicalDecimal(text: string): string | undefined {
  const m = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return undefined;
  const [, whole = '', fraction = '', exponent = '0'] = m;
  let digits = whole + fraction;
  let point = whole.length + Number(exponent);
  const lead = digits.length - digits.replace(/^0+/, '').length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= lead;
  return digits === '' ? '0' : `${digits}e${point}`;
}
