// `-o geojson` anywhere but a command that writes it (writesGeojson, next to the command's
// definition) is a usage error, before anything is read or sent.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { FORMATS } from '../output/formats.js';
import { orList } from '../util/format.js';
import { isGeojsonCommand } from '../commands/shared/output-facts.js';
import { commandPath } from '../commands/shared/preflight.js';

/** The commands of tree that write GeoJSON, in help order. */
function geojsonCommands(tree: Command): string[] {
  return [...(isGeojsonCommand(tree) ? [commandPath(tree)] : []), ...tree.commands.flatMap(geojsonCommands)];
}

/** tree builds the whole command tree: only the error names every command that takes -o geojson. */
export async function refuseGeojson(action: Command, tree: () => Promise<Command>): Promise<void> {
  if (action.optsWithGlobals().output !== 'geojson' || isGeojsonCommand(action)) return;
  const writers = geojsonCommands(await tree());
  throw new UsageError(`-o geojson is for ${writers.map((c) => `sct ${c}`).join(' and ')}: sct ${commandPath(action)} writes ${orList(FORMATS)}`);
}
