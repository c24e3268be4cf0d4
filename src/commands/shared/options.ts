// A command's options as data: what each flag is called, says, takes and parses, in the order
// help lists them. The adapter (spec.ts) turns them into commander options; the options object a
// run function receives is typed from the same records (OptionsOf, src/option-types.ts), so a new
// flag is one entry.
import { Option } from 'commander';
import type { OptionSpec } from '../../option-types.js';
import { enumOption } from './flags.js';

export type { OptionEntry, OptionSpec, OptionsOf } from '../../option-types.js';

/** The commander option of a record. */
export function optionOf(o: OptionSpec): Option {
  const description = o.description;
  const option = o.values
    ? enumOption(o.flags, typeof description === 'function' ? description : () => description, o.values)
    : new Option(o.flags, typeof description === 'function' ? description([]) : description);
  if (o.parse) option.argParser(o.parse);
  if (o.default !== undefined) option.default(o.default);
  if (o.hidden) option.hideHelp();
  return option;
}
