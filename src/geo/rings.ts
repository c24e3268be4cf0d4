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
 * Calls `visit(i, j)` for every pair of segments whose boxes overlap: the segments of `ring` among
 * themselves (i < j), or with `other` those of `ring` (i) and of `other` (j). A sweep along the
 * rings' longer side keeps the segments whose span reaches the current one, so a ring of 200,000
 * positions compares each segment with its few neighbours, not with every other (a field team's
 * traced boundary took minutes, a registry-sized file hours). Along the longer side: a strip of
 * land running north–south has every segment's longitudes overlapping every other's, and a sweep
 * along longitude compared them all (100,000 positions: 34 s, against 0.7 s turned east–west).
 */
/** Below this many segments in all, every pair is compared: cheaper than sorting them. */
const SMALL = 24;

/** @returns how many pairs of boxes it compared: the sweep's work, which a test holds to about linear. */
export function overlappingSegments(ring: Position[], other: Position[] | undefined, visit: (i: number, j: number) => void): number {
  const own = ring.length - 1;
  const total = own + (other ? other.length - 1 : 0);
  if (total <= 0) return 0;
  // A few segments (the parts of a MultiPolygon, compared two by two): every pair, without
  // the sweep's arrays.
  if (total <= SMALL) {
    const segment = (k: number) => (k < own ? [ring[k], ring[k + 1]] : [other![k - own], other![k - own + 1]]);
    for (let k = 0; k < total; k++) {
      for (let m = k + 1; m < total; m++) {
        if (other && (k < own) === (m < own)) continue;
        const [[a, b], [c, d]] = [segment(k), segment(m)];
        if (Math.max(a[0], b[0]) < Math.min(c[0], d[0]) || Math.max(c[0], d[0]) < Math.min(a[0], b[0])) continue;
        visit(k, other ? m - own : m);
      }
    }
    return (total * (total - 1)) / 2;
  }
  const [x0, x1, y0, y1] = [new Float64Array(total), new Float64Array(total), new Float64Array(total), new Float64Array(total)];
  for (let k = 0; k < total; k++) {
    const [r, at] = k < own ? [ring, k] : [other!, k - own];
    const [a, b] = [r[at], r[at + 1]];
    [x0[k], x1[k], y0[k], y1[k]] = [Math.min(a[0], b[0]), Math.max(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[1], b[1])];
  }
  const spanOf = (lo: Float64Array, hi: Float64Array) => hi.reduce((a, b) => Math.max(a, b), -Infinity) - lo.reduce((a, b) => Math.min(a, b), Infinity);
  const [s0, s1, t0, t1] = spanOf(y0, y1) > spanOf(x0, x1) ? [y0, y1, x0, x1] : [x0, x1, y0, y1];
  const order = Array.from({ length: total }, (_, k) => k).sort((p, q) => s0[p] - s0[q]);
  let active: number[] = [];
  let compared = 0;
  for (const k of order) {
    compared += active.length;
    active = active.filter((m) => s1[m] >= s0[k]);
    for (const m of active) {
      if (t1[m] < t0[k] || t1[k] < t0[m]) continue;
      if (!other) visit(Math.min(k, m), Math.max(k, m));
      else if ((k < own) !== (m < own)) visit(Math.min(k, m), Math.max(k, m) - own);
    }
    active.push(k);
  }
  return compared;
}

/**
 * The first place a closed ring (no repeats) crosses or touches itself: two segments that are
 * not neighbours meeting, or a segment doubling back over the one before (a spike). "First" in
 * the ring's order: the lowest segment, then the lowest it meets, a spike at a segment before its
 * meetings.
 */
export function selfMeeting(ring: Position[]): Meeting | undefined {
  const n = ring.length - 1; // segments
  let best: { i: number; j: number; m: Meeting } | undefined;
  for (let i = 0; i < n && n > 2; i++) {
    const [a, b] = [ring[i], ring[i + 1]];
    const next = ring[(i + 2) % ring.length === 0 ? 1 : i + 2];
    if (orient(a, b, next) === 0 && (b[0] - a[0]) * (next[0] - b[0]) + (b[1] - a[1]) * (next[1] - b[1]) < 0) {
      best = { i, j: -1, m: { kind: 'overlap', at: b } };
      break;
    }
  }
  overlappingSegments(ring, undefined, (i, j) => {
    if (j < i + 2 || (i === 0 && j === n - 1)) return; // neighbours; the first and last share the closing position
    if (best && (best.i < i || (best.i === i && best.j < j))) return;
    const m = meet(ring[i], ring[i + 1], ring[j], ring[j + 1]);
    if (m) best = { i, j, m };
  });
  return best?.m;
}

/**
 * How two rings meet: the first place (in r's order, then s's) where segments cross or overlap,
 * and the distinct points where they only touch before it.
 */
export function ringMeetings(r: Position[], s: Position[]): { crossing?: Meeting; touches: Position[] } {
  let crossing: { i: number; j: number; m: Meeting } | undefined;
  const touching: Array<{ i: number; j: number; at: Position }> = [];
  overlappingSegments(r, s, (i, j) => {
    if (crossing && (crossing.i < i || (crossing.i === i && crossing.j < j))) return;
    const m = meet(r[i], r[i + 1], s[j], s[j + 1]);
    if (!m) return;
    if (m.kind === 'touch') touching.push({ i, j, at: m.at });
    else crossing = { i, j, m };
  });
  const touches: Position[] = [];
  touching.sort((p, q) => p.i - q.i || p.j - q.j);
  for (const t of touching) {
    if (crossing && (crossing.i < t.i || (crossing.i === t.i && crossing.j < t.j))) break;
    if (!touches.some((p) => p[0] === t.at[0] && p[1] === t.at[1])) touches.push(t.at);
  }
  return crossing ? { crossing: crossing.m, touches } : { touches };
}

/**
 * Whether every position lies on one line (a ring with no area). Decimal coordinates are not
 * exact in binary, so "on the line" allows 1e-12 square degrees (about 0.01 m²), measured along
 * the line to the position farthest from the first: along two positions a hair apart, any ring
 * would be "on" it.
 */
export function collinear(ring: Position[]): boolean {
  const a = ring[0];
  let b: Position | undefined;
  let far = 0;
  for (const p of ring) {
    const d = (p[0] - a[0]) ** 2 + (p[1] - a[1]) ** 2;
    if (d > far) [b, far] = [p, d];
  }
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
