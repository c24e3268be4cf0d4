// Numbers and durations given on the command line or in a file's cells: the bottom layer, so the
// reader of bulk files and the context use them without reaching up into the commands.
import { UsageError } from '../errors.js';

/** "10m", "90s", "1h", "500ms" or plain seconds. */
export function parseDuration(value: string, flag: string, o: { allowZero?: boolean } = {}): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new UsageError(`invalid ${flag} "${value}": use e.g. 30s, 10m, 1h`);
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  const ms = Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!);
  // 0 would switch the limit off (and 0.0001s rounds to 0): a limit is a positive time.
  if (ms < 1 && !(o.allowZero && n === 0)) throw new UsageError(`invalid ${flag} "${value}": must be more than 0 (at least 1ms)`);
  return ms;
}

export function parseInteger(value: string | undefined, flag: string, min = 0, max = 2_147_483_647): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(String(value).trim())) throw new UsageError(`invalid ${flag} "${value}": expected a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`invalid ${flag} ${value}: expected ${min}..${max}`);
  return n;
}
