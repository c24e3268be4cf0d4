// `sct help TOPIC`: the topics' texts are in src/help/topics.ts, loaded only when one is asked for.
import type { Command } from 'commander';
import type { IOStreams } from '../output/iostreams.js';
import { UsageError } from '../errors.js';
import { GROUPS, isGroup } from './groups.js';

import { HELP_TOPICS } from '../help/topic-names.js';
import { GLOBAL_VALUE_FLAGS } from '../global-flags.js';

/** The words of `sct help …`: the values of global options (`-o json`) are none. */
function wordsOf(args: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (GLOBAL_VALUE_FLAGS.has(args[i])) i++;
    else if (!args[i].startsWith('-')) words.push(args[i]);
  }
  return words;
}

/**
 * `sct help WORD`: a help topic is printed here; a command goes on to commander's own help; any
 * other word is exit 2 with the closest command or topic. Returns true when it printed a topic.
 * `tree` builds the whole command tree, which only the `reference` topic needs.
 */
export async function helpTopic(argv: string[], io: IOStreams, tree: (io: IOStreams) => Promise<Command>): Promise<boolean> {
  const words = wordsOf(argv.slice(argv.indexOf('help') + 1));
  const word = words[0];
  // `config` is a topic and a command: the topic wins (it lists the commands; `sct config --help`
  // has their options), as the spec names it among the topics.
  if (HELP_TOPICS.includes(word) && words.length === 1) {
    const { TOPICS } = await import('../help/topics.js');
    if (word === 'reference') {
      // The whole manual: the only topic that needs every command group loaded.
      const { renderReference } = await import('../help/manual.js');
      await io.write(renderReference(await tree(io), TOPICS));
    } else {
      // Written for 100 columns; fitted to the terminal, or to 80 in a pipe as commander's help.
      const { fitLines } = await import('../help/wrap.js');
      await io.write(fitLines(TOPICS[word].text(), io.stdoutIsTTY ? io.terminalWidth() : 80));
    }
    return true;
  }
  if (word === undefined || isGroup(word) || word === 'help') return false;
  // A topic has no sub-topics: `sct help exit-codes extra` is not a misspelt exit-codes.
  if (HELP_TOPICS.includes(word)) {
    throw new UsageError(`help topic ${word} takes nothing after it (got "${words.slice(1).join(' ')}")`, {}, `sct help ${word}`);
  }
  const { closest } = await import('../output/suggest.js');
  const guess = closest(word, [...GROUPS.map((g) => g.name), ...HELP_TOPICS]);
  throw new UsageError(`unknown help topic or command "${word}"${guess ? `: did you mean ${guess}?` : ''}`, {}, `commands: sct --help; topics: ${HELP_TOPICS.join(', ')}`);
}
