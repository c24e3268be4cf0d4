// The flags of dds create and update: registered with the command tree, without the code (and
// the schemas) that checks and sends the statement (save.ts).
import type { Command } from 'commander';
import { DDS_TYPES } from '../../api/enums.js';
import { addBodyOptions } from '../shared/crud.js';
import type { BodyFlags } from '../shared/body.js';
import { addAlias, appendList, enumOption } from '../shared/flags.js';

export interface CreateFlags extends BodyFlags {
  type?: string;
  name?: string;
  ddsIdentifier?: string;
  order?: string;
  product?: string;
  assessmentRunId?: string;
  wait?: boolean;
  timeout?: string;
}

export interface UpdateFlags {
  status?: string;
  name?: string;
}

export function addStatementFields(cmd: Command): Command {
  addBodyOptions(
    cmd
      .addOption(enumOption('--type <type>', (v) => `${v.join(', ')} (required)`, DDS_TYPES))
      .option('--name <text>', 'a name for the statement (at most 255 characters)')
      .option('--dds-identifier <id>', 'the EU registry reference (EUDR: retrieve a filed statement; PPWR: required)')
      .option('--order <ids>', 'orders you buy to attach, comma-separated or repeated', appendList)
      .option('--product <ids>', 'products you own to attach, comma-separated or repeated', appendList)
      .option('--assessment-run-id <uuids>', 'assessment runs to pin, comma-separated or repeated (PPWR, EUDR without identifier)', appendList),
  );
  addAlias(cmd, 'orders', 'order');
  addAlias(cmd, 'products', 'product');
  addAlias(cmd, 'assessment-run-ids', 'assessment-run-id');
  return cmd;
}
