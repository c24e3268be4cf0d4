// How the segments of plot rings meet: the geometry behind "crosses itself", "touches itself",
// "parts overlap" and "a hole touches its outer ring". Written out rather than taken from
// @turf/kinks, which counts a position repeated twice in a row as a crossing (a false error on
// real field files) and does not tell a crossing from a touch, which the registry treats apart.
import type { Position } from 'geojson';

export type Meeting =
  /** The segments cross at a point inside both. */
  | { kind: 'cross'; at: Position }
  /** An end of one lies on the other (or they share an end). */
  | { kind: 'touch'; at: Position }
  /** They lie on one line and share a stretch of it. */
  | { kind: 'overlap'; at: Position };

/** > 0: c is left of a→b; < 0: right; 0: on its line. */
function orient(a: Position, b: Position, c: Position): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/** Whether c, known to be on the line of a→b, lies between a and b (ends included). */
function within(a: Position, b: Position, c: Position): boolean {
  return Math.min(a[0], b[0]) <= c[0] && c[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= c[1] && c[1] <= Math.max(a[1], b[1]);
}

export function meet(a: Position, b: Position, c: Position, d: Position): Meeting | undefined {
  if (Math.max(a[0], b[0]) < Math.min(c[0], d[0]) || Math.max(c[0], d[0]) < Math.min(a[0], b[0])) return undefined;
  if (Math.max(a[1], b[1]) < Math.min(c[1], d[1]) || Math.max(c[1], d[1]) < Math.min(a[1], b[1])) return undefined;
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  if (o1 === 0 && o2 === 0) {
    // On one line: a shared stretch, a shared end, or apart.
    const ends = [c, d].filter((p) => within(a, b, p)).concat([a, b].filter((p) => within(c, d, p)));
    if (ends.length === 0) return undefined;
    const distinct = ends.filter((p, i) => ends.findIndex((q) => q[0] === p[0] && q[1] === p[1]) === i);
    return { kind: distinct.length > 1 ? 'overlap' : 'touch', at: distinct[0] };
  }
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
    const t = o3 / (o3 - o4);
    return { kind: 'cross', at: [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])] };
  }
  if (o1 === 0 && within(a, b, c)) return { kind: 'touch', at: c };
  if (o2 === 0 && within(a, b, d)) return { kind: 'touch', at: d };
  if (o3 === 0 && within(c, d, a)) return { kind: 'touch', at: a };
  if (o4 === 0 && within(c, d, b)) return { kind: 'touch', at: b };
  return undefined;
}

/** The ring without positions equal (in longitude and latitude) to the one before. */
export function withoutRepeats(ring: Position[]): Position[] {
  // Most rings have none: no copy then (this runs on every ring of big files).
  if (!ring.some((p, i) => i > 0 && p[0] === ring[i - 1][0] && p[1] === ring[i - 1][1])) return ring;
  const out: Position[] = [ring[0]];
  for (let i = 1; i < ring.length; i++) {
    const p = out[out.length - 1];
    if (ring[i][0] !== p[0] || ring[i][1] !== p[1]) out.push(ring[i]);
  }
  return out;
}

/**
 * The first place a closed ring (no repeats) crosses or touches itself: two segments that are
 * not neighbours meeting, or a segment doubling back over the one before (a spike).
 */
export function selfMeeting(ring: Position[]): Meeting | undefined {
  const n = ring.length - 1; // segments
  for (let i = 0; i < n; i++) {
    const a = ring[i];
    const b = ring[i + 1];
    const next = ring[(i + 2) % ring.length === 0 ? 1 : i + 2];
    if (n > 2 && orient(a, b, next) === 0 && (b[0] - a[0]) * (next[0] - b[0]) + (b[1] - a[1]) * (next[1] - b[1]) < 0) {
      return { kind: 'overlap', at: b };
    }
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // the first and last segments share the closing position
      const m = meet(a, b, ring[j], ring[j + 1]);
      if (m) return m;
    }
  }
  return undefined;
}

/** How two rings meet: whether some segments cross or overlap, and the distinct points where they only touch. */
export function ringMeetings(r: Position[], s: Position[]): { crossing?: Meeting; touches: Position[] } {
  const touches: Position[] = [];
  for (let i = 0; i + 1 < r.length; i++) {
    for (let j = 0; j + 1 < s.length; j++) {
      const m = meet(r[i], r[i + 1], s[j], s[j + 1]);
      if (!m) continue;
      if (m.kind !== 'touch') return { crossing: m, touches };
      if (!touches.some((p) => p[0] === m.at[0] && p[1] === m.at[1])) touches.push(m.at);
    }
  }
  return { touches };
}

/**
 * Whether every position lies on one line (a ring with no area). Decimal coordinates are not
 * exact in binary, so "on the line" allows 1e-12 square degrees (about 0.01 m²).
 */
export function collinear(ring: Position[]): boolean {
  const a = ring[0];
  const b = ring.find((p) => p[0] !== a[0] || p[1] !== a[1]);
  if (!b) return true;
  return ring.every((c) => Math.abs(orient(a, b, c)) < 1e-12);
}

/** The bounding box [west, south, east, north] of rings. */
export function bboxOf(rings: Position[][]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  }
  return b;
}
