// How ring segments meet, found by a sweep along the rings' longer side: the same first meeting, and the same
// touches, as comparing every segment with every other (the reference below), on random rings
// whose positions sit on a small grid, so that crossings, touches and shared edges are common.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Position } from 'geojson';
import { collinear, meet, overlappingSegments, ringMeetings, selfMeeting } from '../../src/geo/rings.js';

function selfMeetingByPairs(ring: Position[]) {
  const n = ring.length - 1;
  for (let i = 0; i < n; i++) {
    const [a, b] = [ring[i]!, ring[i + 1]!];
    const next = ring[(i + 2) % ring.length === 0 ? 1 : i + 2]!;
    const turn = (b[0] - a[0]) * (next[1] - a[1]) - (b[1] - a[1]) * (next[0] - a[0]);
    if (n > 2 && turn === 0 && (b[0] - a[0]) * (next[0] - b[0]) + (b[1] - a[1]) * (next[1] - b[1]) < 0) return { kind: 'overlap', at: b };
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const m = meet(a, b, ring[j]!, ring[j + 1]!);
      if (m) return m;
    }
  }
  return undefined;
}

function ringMeetingsByPairs(r: Position[], s: Position[]) {
  const touches: Position[] = [];
  for (let i = 0; i + 1 < r.length; i++) {
    for (let j = 0; j + 1 < s.length; j++) {
      const m = meet(r[i]!, r[i + 1]!, s[j]!, s[j + 1]!);
      if (!m) continue;
      if (m.kind !== 'touch') return { crossing: m, touches };
      if (!touches.some((p) => p[0] === m.at[0] && p[1] === m.at[1])) touches.push(m.at);
    }
  }
  return { touches };
}

/** A closed ring of 3–60 distinct-in-a-row positions on a 6×6 grid. */
const ring = fc
  .array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { minLength: 3, maxLength: 60 })
  .map((ps) => ps.filter((p, i) => i === 0 || p[0] !== ps[i - 1]![0] || p[1] !== ps[i - 1]![1]))
  .filter((ps) => ps.length >= 3 && (ps[0]![0] !== ps.at(-1)![0] || ps[0]![1] !== ps.at(-1)![1]))
  .map((ps): Position[] => [...ps, ps[0]!].map(([x, y]) => [x / 2, y / 3]));

describe('ring meetings by a sweep', () => {
  it('a ring meets itself first where comparing every pair finds it', () => {
    fc.assert(fc.property(ring, (r) => {
      expect(selfMeeting(r)).toEqual(selfMeetingByPairs(r));
    }), { numRuns: 2000 });
  });

  it('two rings cross and touch where comparing every pair finds it', () => {
    fc.assert(fc.property(ring, ring, (r, s) => {
      expect(ringMeetings(r, s)).toEqual(ringMeetingsByPairs(r, s));
    }), { numRuns: 2000 });
  });

  it('a ring of 200,000 positions round a circle is found not to meet itself, segment by segment near each other only', () => {
    const n = 200_000;
    const r: Position[] = Array.from({ length: n }, (_, i) => [-1.62 + 0.01 * Math.cos((2 * Math.PI * i) / n), 6.7 + 0.01 * Math.sin((2 * Math.PI * i) / n)]);
    r.push(r[0]!);
    expect(selfMeeting(r)).toBeUndefined();
    const hole = r.map(([x, y]) => [x! * 0.5 + -1.62 * 0.5, y! * 0.5 + 6.7 * 0.5]);
    expect(ringMeetings(r, hole)).toEqual({ touches: [] });
  });
});

describe('the sweep on a long, thin plot', () => {
  /** A strip 0.002° wide and 0.05° long of n positions, its two long sides jittered; turned east–west when asked. */
  function strip(n: number, eastWest: boolean): Position[] {
    let seed = 1;
    const jitter = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 2e-5;
    const half = n / 2;
    const east = Array.from({ length: half }, (_, i) => [-5.298 + jitter(), 6.8 + (0.05 * i) / half]);
    const west = Array.from({ length: half }, (_, i) => [-5.3 + jitter(), 6.85 - (0.05 * i) / half]);
    const ring = [...east, ...west, east[0]!].map(([x, y]) => [Number(x!.toFixed(6)), Number(y!.toFixed(6))]);
    return eastWest ? ring.map(([x, y]) => [Number((-5.299 - (y! - 6.825)).toFixed(6)), Number((6.825 + (x! + 5.299)).toFixed(6))]) : ring;
  }

  it('compares each segment with a few others, whichever way the strip runs (north–south compared them all)', () => {
    for (const eastWest of [false, true]) {
      const ring = strip(20_000, eastWest);
      const compared = overlappingSegments(ring, undefined, () => undefined);
      expect(compared, eastWest ? 'east–west' : 'north–south').toBeLessThan(20 * ring.length);
    }
  });
});

describe('collinear', () => {
  it('measures against the ring’s widest pair, not its first two positions: two corners 2e-10° apart start a 49 ha plot', () => {
    const plot: Position[] = [[-2.48, 6.2099999999], [-2.48, 6.2100000001], [-2.476, 6.22], [-2.476, 6.2], [-2.48, 6.2099999999]];
    expect(collinear(plot)).toBe(false);
    expect(collinear([[0, 0], [1, 1], [2, 2], [0, 0]])).toBe(true);
    expect(collinear([[0, 0], [1e-9, 0], [2, 1e-14], [0, 0]])).toBe(true);
  });
});
