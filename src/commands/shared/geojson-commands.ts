// Which commands write `-o geojson`: a property each such command sets where it is defined,
// read by the check that refuses the format everywhere else (src/cli/geojson-check.ts).
import type { Command } from 'commander';

const GEOJSON = new WeakSet<Command>();

/** Marks cmd as one whose resources have a location to write as GeoJSON (`-o geojson`). */
export function writesGeojson(cmd: Command): Command {
  GEOJSON.add(cmd);
  return cmd;
}

export function isGeojsonCommand(cmd: Command): boolean {
  return GEOJSON.has(cmd);
}
