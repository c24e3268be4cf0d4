// What a command writes, stated where the command is defined: the documented resource it prints
// (its `--columns` names and CSV header come from it) and whether it writes `-o geojson`. The
// program reads these from the command tree; no table keyed by "group verb" elsewhere.
import type { Command } from 'commander';
import type { DocumentedResource } from '../../api/schemas/fields.js';
import type { Printed } from '../../output/fields.js';

const GEOJSON = new WeakSet<Command>();
const PRINTED = new WeakMap<Command, Printed>();

/** Marks cmd as one whose resources have a location to write as GeoJSON (`-o geojson`). */
export function writesGeojson(cmd: Command): Command {
  GEOJSON.add(cmd);
  return cmd;
}

export function isGeojsonCommand(cmd: Command): boolean {
  return GEOJSON.has(cmd);
}

/**
 * Marks cmd as printing resource (`extraFields`: names sct adds to it, as `workspaces list`'s
 * `current`). Commands without it (statistics, reports, bulk results, `sct api`) print shapes of
 * their own and take any field name.
 */
export function prints(cmd: Command, resource: DocumentedResource, extraFields?: readonly string[]): Command {
  PRINTED.set(cmd, { resource, extraFields });
  return cmd;
}

export function printedBy(cmd: Command): Printed | undefined {
  return PRINTED.get(cmd);
}
