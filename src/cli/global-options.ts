// sct's global options, and how a sub-command's help shows them: its own options first, then
// the few global ones that matter for it (as gh's INHERITED FLAGS) and one line for the rest.
import { InvalidArgumentError, Option, type Command, type Help } from 'commander';
import { GLOBAL_OPTIONS, GLOBAL_OPTIONS_LINE } from '../global-flags.js';
import { optionOf } from '../commands/shared/options.js';

/** An option of choices that takes them in any case (`-o JSON`), as every enum value is taken. */
function caseInsensitive(option: Option): Option {
  const check = option.parseArg!;
  const choices = option.argChoices ?? [];
  return option.argParser((value: string, previous: unknown) => {
    try {
      return check(value.toLowerCase(), previous);
    } catch (err) {
      // geojson is one command's format (origins list and get), not every command's: not offered as one of all.
      if (err instanceof InvalidArgumentError && choices.includes('geojson')) {
        throw new InvalidArgumentError(`Allowed choices are ${choices.filter((c) => c !== 'geojson').join(', ')}, and geojson where a command's --help offers it.`);
      }
      throw err;
    }
  });
}

export function addGlobalOptions(program: Command): Command {
  for (const o of GLOBAL_OPTIONS) {
    // -o's values are commander's choices (help lists them), taken in any case.
    program.addOption('values' in o ? caseInsensitive(new Option(o.flags, o.description).choices(o.values)) : optionOf(o));
  }
  return program;
}

/**
 * The global options that take a value (`-o`, `--output`, `--profile`, …), read from the options
 * themselves: the word after one is its value, never a command name.
 */
export function globalValueFlags(program: Command): Set<string> {
  return new Set(program.options.filter((o) => o.required).flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined)));
}

/** The global options a sub-command's help repeats; `sct --help` lists them all. */
const INHERITED_OPTIONS = ['--output', '--json', '--jq', '--columns', '--profile'];


export const LEAF_HELP: Partial<Help> = {
  showGlobalOptions: true,
  // Commander wraps descriptions only where 40 columns are left for them: `members`, whose
  // `set-role [options] <member-id> <role>` leaves 39 at 80, printed its lines whole.
  minWidthToWrap: 30,
  visibleGlobalOptions(cmd: Command): Option[] {
    let root = cmd;
    while (root.parent) root = root.parent;
    if (root === cmd) return [];
    return INHERITED_OPTIONS.map((long) => root.options.find((o) => o.long === long)).filter((o): o is Option => o !== undefined && !o.hidden);
  },
  formatItemList(heading: string, items: string[], helper: Help): string[] {
    if (items.length === 0) return [];
    if (heading === 'Global Options:') return [helper.styleTitle('Inherited options:'), ...items, '', GLOBAL_OPTIONS_LINE, ''];
    return [helper.styleTitle(heading), ...items, ''];
  },
};
