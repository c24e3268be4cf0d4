// Instants of ISO 8601 text, the same on every machine. A date-time without an offset is read
// in UTC: the service reads it in its own time zone, which sct does not know, and the zone of
// the machine sct runs on is no better a guess (the same file and the same data would plan
// differently in Los Angeles and in Berlin).

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/** Milliseconds since 1970 of an ISO 8601 date or date-time (a day that its month lacks is none): NaN for anything else. */
export function instantOf(text: string): number {
  const m = ISO.exec(text.trim());
  if (!m) return NaN;
  const [, y, mo, d, h = '00', mi = '00', , zone] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate()) return NaN;
  if (Number(h) > 23 || Number(mi) > 59) return NaN;
  const iso = text.trim().replace(' ', 'T');
  return Date.parse(zone || !iso.includes('T') ? iso : `${iso}Z`);
}

/** Whether ISO 8601 date-time text names its offset (`Z`, `+02:00`). */
export function hasOffset(text: string): boolean {
  return /(Z|[+-]\d{2}:?\d{2})$/i.test(text.trim());
}

/** The widest offset from UTC a zone has (UTC+14): how far an offset-less time can be from its reading in UTC. */
export const WIDEST_OFFSET_MS = 14 * 3_600_000;
