// `origins check --map plots.svg`: the plots drawn over their countries, because a person sees
// at once what a table of coordinates hides, a plot in the sea. Plain SVG built as text: no
// tiles, no network, opens in any browser. One shape per feature (class "plot", data-feature =
// its index): points as dots, polygons as shapes, features with errors in red with their index.
import type { Position } from 'geojson';
import { positionsOf, type PlotGeometry } from './geojson.js';
import type { CountryOutline } from './countries.js';

export interface MapPlot {
  index: number;
  /** The label of a plot with an error: its index, with the file's name when the map shows several. */
  tag: string;
  /** Shown as the shape's tooltip. */
  label: string;
  geometry: PlotGeometry;
  error: boolean;
}

export interface MapInput {
  title: string;
  plots: MapPlot[];
  /** The plots' own countries: outlined, and always in view. */
  countries: CountryOutline[];
  /** Every other country, drawn faintly where it falls in view, so the sea reads as sea. */
  context: CountryOutline[];
}

const WIDTH = 1000;
const MAX_HEIGHT = 1000;
const MARGIN = 24;
const HEADER = 48;
const FOOTER = 40;
const COLORS = { sea: '#dce9f5', land: '#f4f1ea', landStroke: '#c9c3b6', country: '#e9f1dc', countryStroke: '#4d5b3a', ok: '#1b7f3b', error: '#d1242f' };

type BBox = [number, number, number, number];

export function renderPlotMap(input: MapInput): string {
  const view = viewBox(input);
  const lat0 = ((view[1] + view[3]) / 2) * (Math.PI / 180);
  const k = Math.cos(lat0);
  const spanX = (view[2] - view[0]) * k;
  const spanY = view[3] - view[1];
  const scale = Math.min((WIDTH - 2 * MARGIN) / spanX, (MAX_HEIGHT - 2 * MARGIN) / spanY);
  const mapW = spanX * scale;
  const mapH = spanY * scale;
  const width = Math.round(Math.max(mapW + 2 * MARGIN, 480));
  const height = Math.round(mapH + 2 * MARGIN + HEADER + FOOTER);
  const ox = (width - mapW) / 2;
  const oy = HEADER + MARGIN;
  const project = (p: Position): [number, number] => [ox + (p[0] - view[0]) * k * scale, oy + (view[3] - p[1]) * scale];

  const out: string[] = [];
  out.push(
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<title>${xml(input.title)}</title>`,
    `<rect class="sea" x="0" y="0" width="${width}" height="${height}" fill="${COLORS.sea}"/>`,
  );
  const own = new Set(input.countries);
  out.push(`<g class="context" fill="${COLORS.land}" stroke="${COLORS.landStroke}" stroke-width="0.6">`);
  for (const c of input.context) {
    if (!own.has(c) && intersects(c.bbox, view)) out.push(`<path d="${outlinePath(c, project)}" fill-rule="evenodd"><title>${xml(c.name)}</title></path>`);
  }
  out.push(`</g>`, `<g class="countries" fill="${COLORS.country}" stroke="${COLORS.countryStroke}" stroke-width="1.2">`);
  for (const c of input.countries) out.push(`<path class="country" data-country="${xml(c.code)}" d="${outlinePath(c, project)}" fill-rule="evenodd"><title>${xml(`${c.name} (${c.code})`)}</title></path>`);
  out.push(`</g>`, `<g class="plots" stroke-width="1.5" stroke-linejoin="round">`);
  // Features with errors last, so no sound plot hides one.
  const ordered = [...input.plots.filter((p) => !p.error), ...input.plots.filter((p) => p.error)];
  for (const p of ordered) out.push(plotShape(p, project));
  out.push(`</g>`, `<g class="labels" font-weight="bold" fill="${COLORS.error}" stroke="#fff" stroke-width="3" paint-order="stroke">`);
  for (const p of input.plots.filter((x) => x.error)) {
    const [x, y] = project(anchorOf(p.geometry));
    out.push(`<text class="label" data-feature="${p.index}" x="${f(x + 6)}" y="${f(y - 6)}">${xml(p.tag)}</text>`);
  }
  out.push(`</g>`);
  out.push(header(input, width), footer(input, width, height, scale));
  out.push(`</svg>`, '');
  return out.join('\n');
}

function plotShape(p: MapPlot, project: (p: Position) => [number, number]): string {
  const color = p.error ? COLORS.error : COLORS.ok;
  const common = `class="plot ${p.error ? 'error' : 'ok'}" data-feature="${p.index}"`;
  const title = `<title>${xml(p.label)}</title>`;
  if (p.geometry.type === 'Point') {
    const [x, y] = project(p.geometry.coordinates);
    return `<circle ${common} cx="${f(x)}" cy="${f(y)}" r="${p.error ? 5 : 3.5}" fill="${color}" stroke="#fff">${title}</circle>`;
  }
  const polygons = p.geometry.type === 'Polygon' ? [p.geometry.coordinates] : p.geometry.coordinates;
  const d = polygons.flatMap((rings) => rings.map((ring) => ringPath(ring, visible(polygons, project), 0))).join('');
  return `<path ${common} d="${d}" fill="${color}" fill-opacity="0.45" stroke="${color}" fill-rule="evenodd">${title}</path>`;
}

/**
 * A plot is a few hundred metres across, a country hundreds of km: drawn to scale, a polygon
 * would be a speck. Shapes smaller than MIN_PLOT_PX are blown up about their centre to that
 * size, so a polygon still reads as a shape, not a dot.
 */
const MIN_PLOT_PX = 9;

function visible(polygons: Position[][][], project: (p: Position) => [number, number]): (p: Position) => [number, number] {
  // The box by a loop, not Math.min(...xs): a plot of 130,000 positions is more arguments than a call takes.
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const ring of polygons.flat(1)) {
    for (const position of ring) {
      const [x, y] = project(position);
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  const size = Math.max(x1 - x0, y1 - y0);
  if (size >= MIN_PLOT_PX) return project;
  const cx = (x1 + x0) / 2;
  const cy = (y1 + y0) / 2;
  const k = size > 0 ? MIN_PLOT_PX / size : 1;
  return (p) => {
    const [x, y] = project(p);
    return [cx + (x - cx) * k, cy + (y - cy) * k];
  };
}

function outlinePath(c: CountryOutline, project: (p: Position) => [number, number]): string {
  return c.parts.flatMap((part) => part.polygon.coordinates.map((ring) => ringPath(ring, project, 0.7))).join('');
}

/** A closed path; vertices closer than `minPx` to the last one drawn are left out (outlines at continent scale). */
function ringPath(ring: Position[], project: (p: Position) => [number, number], minPx: number): string {
  let d = '';
  let last: [number, number] | undefined;
  let lastPos: Position | undefined;
  for (const pos of ring) {
    const pt = project(pos);
    if (last && Math.abs(pt[0] - last[0]) < minPx && Math.abs(pt[1] - last[1]) < minPx) continue;
    // A ring that crosses the antimeridian (Fiji, Russia) would draw a line across the world.
    const jump = lastPos !== undefined && Math.abs(pos[0] - lastPos[0]) > 180;
    d += `${last && !jump ? 'L' : 'M'}${f(pt[0])},${f(pt[1])}`;
    last = pt;
    lastPos = pos;
  }
  return d ? `${d}Z` : '';
}

/** What the map shows: every plot and its countries, with a margin. */
function viewBox(input: MapInput): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const grow = (x: number, y: number) => {
    b[0] = Math.min(b[0], x);
    b[1] = Math.min(b[1], y);
    b[2] = Math.max(b[2], x);
    b[3] = Math.max(b[3], y);
  };
  for (const p of input.plots) for (const pos of positionsOf(p.geometry)) grow(pos[0], pos[1]);
  for (const c of input.countries) {
    grow(c.bbox[0], c.bbox[1]);
    grow(c.bbox[2], c.bbox[3]);
  }
  if (!Number.isFinite(b[0])) return [-180, -60, 180, 80];
  // A lone point still gets some land around it; a pad keeps shapes off the edge.
  const pad = Math.max((b[2] - b[0]) * 0.05, (b[3] - b[1]) * 0.05, 0.02);
  return [Math.max(-180, b[0] - pad), Math.max(-85, b[1] - pad), Math.min(180, b[2] + pad), Math.min(85, b[3] + pad)];
}

function anchorOf(g: PlotGeometry): Position {
  const ps = positionsOf(g);
  let best = ps[0];
  for (const p of ps) if (p[1] > best[1]) best = p; // the top: labels sit above the shape
  return best;
}

function intersects(a: BBox, b: BBox): boolean {
  return a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];
}

function header(input: MapInput, width: number): string {
  const errors = input.plots.filter((p) => p.error).length;
  const names = input.countries.map((c) => `${c.name} (${c.code})`).join(', ');
  return [
    `<g class="header">`,
    `<rect x="0" y="0" width="${width}" height="${HEADER}" fill="#fff" fill-opacity="0.9"/>`,
    `<text x="${MARGIN}" y="20" font-size="15" font-weight="bold">${xml(input.title)}</text>`,
    `<text x="${width - MARGIN}" y="20" text-anchor="end" fill="#777" font-size="10">outlines: Natural Earth 1:50m</text>`,
    `<text x="${MARGIN}" y="38" fill="#444">${xml(`${input.plots.length} plot${input.plots.length === 1 ? '' : 's'}${names ? ` in ${names}` : ''}; ${errors} with errors (red, labelled with their feature number)`)}</text>`,
    `</g>`,
  ].join('\n');
}

function footer(input: MapInput, width: number, height: number, scale: number): string {
  // One projected unit is one degree of latitude, about 111.32 km.
  const kmPerPx = 111.32 / scale;
  const target = (width / 5) * kmPerPx;
  const step = 10 ** Math.floor(Math.log10(target));
  const km = [1, 2, 5, 10].map((m) => m * step).filter((v) => v <= target).pop() ?? step;
  const px = km / kmPerPx;
  const y = height - 16;
  const x = MARGIN;
  const lx = width - MARGIN - 230;
  return [
    `<g class="legend">`,
    `<rect x="0" y="${height - FOOTER}" width="${width}" height="${FOOTER}" fill="#fff" fill-opacity="0.9"/>`,
    `<path d="M${f(x)},${y - 4}v4h${f(px)}v-4" fill="none" stroke="#333" stroke-width="1.5"/>`,
    `<text x="${f(x + px + 6)}" y="${y}">${km >= 1 ? km.toLocaleString('en-US') : km} km</text>`,
    `<circle cx="${lx}" cy="${y - 4}" r="3.5" fill="${COLORS.ok}"/><text x="${lx + 8}" y="${y}">point</text>`,
    `<rect x="${lx + 52}" y="${y - 9}" width="10" height="10" fill="${COLORS.ok}" fill-opacity="0.45" stroke="${COLORS.ok}"/><text x="${lx + 66}" y="${y}">polygon</text>`,
    `<circle cx="${lx + 130}" cy="${y - 4}" r="5" fill="${COLORS.error}"/><text x="${lx + 140}" y="${y}">with an error</text>`,
    `</g>`,
  ].join('\n');
}

function f(n: number): string {
  return n.toFixed(1);
}

/** Text for XML: escaped, and without the control characters XML 1.0 cannot hold at all. */
function xml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
