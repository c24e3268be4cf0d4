// shpjs ships no types; these are the two functions sct calls (lib/index.js).
declare module 'shpjs' {
  import type { Geometry } from 'geojson';
  export function parseShp(shp: Uint8Array, prj?: string): Array<Geometry | null>;
  export function parseDbf(dbf: Uint8Array, cpg?: Uint8Array): Array<Record<string, unknown>>;
}
