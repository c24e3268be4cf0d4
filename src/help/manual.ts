// The manual (docs/*.md and man/*.1, and `sct help reference`) rendered from the command tree
// and the help topics: everything here is read from the tree through commander's own Help, so
// the manual says what `--help` says. A function of the tree alone, so that whatever builds the
// tree (commander calls today, a registry of commands as data later) feeds it unchanged.
import type { Command, Help, Option } from 'commander';
import type { EventEmitter } from 'node:events';
import type { Topic } from './topics.js';
import { examplesOf, formatExamples } from './examples.js';
import { fitLines } from './wrap.js';
import { GLOBAL_OPTIONS_LINE } from '../global-flags.js';

interface Item {
  term: string;
  description: string;
}

/** One command's help, as data. */
interface Page {
  words: string[];
  summary: string;
  description: string;
  usage: string;
  args: Item[];
  options: Item[];
  inherited: Item[];
  commands: Array<Item & { words: string[] }>;
  /** The prose the command adds after its options (columns, notes), examples left out. */
  notes: string;
  examples: string[];
}

const name = (words: string[]) => ['sct', ...words].join(' ');
const slug = (words: string[]) => ['sct', ...words].join('-');

/** Every command of the tree, parents before children, in help order; `help` itself left out. */
function commandsOf(program: Command): Array<{ cmd: Command; words: string[] }> {
  const out: Array<{ cmd: Command; words: string[] }> = [];
  const walk = (cmd: Command, words: string[]) => {
    out.push({ cmd, words });
    for (const sub of cmd.commands) if (sub.name() !== 'help') walk(sub, [...words, sub.name()]);
  };
  walk(program, []);
  return out;
}

/** What a command's addHelpText('after', …) writes: commander keeps it only as a listener. */
function afterText(cmd: Command): string {
  let out = '';
  // A Command is an EventEmitter at run time; commander's types do not say so.
  (cmd as unknown as EventEmitter).emit('afterHelp', { error: false, command: cmd, write: (s: string) => void (out += s) });
  return out;
}

function pageOf(cmd: Command, words: string[]): Page {
  const help: Help = cmd.createHelp();
  help.prepareContext({ helpWidth: 80, outputHasColors: false });
  const item = (term: string, description: string): Item => ({ term, description });
  const examples = [...examplesOf(cmd)];
  // The examples block ends the help text (addExamples comes last); the notes are what precedes it.
  let after = afterText(cmd).trim();
  const block = formatExamples(examples);
  if (examples.length && after.endsWith(block)) after = after.slice(0, -block.length);
  const description = help.commandDescription(cmd);
  return {
    words,
    summary: cmd.summary() || description.split('\n')[0],
    description,
    usage: help.commandUsage(cmd),
    args: help.visibleArguments(cmd).map((a) => item(help.argumentTerm(a), help.argumentDescription(a))),
    options: help.visibleOptions(cmd).map((o: Option) => item(help.optionTerm(o), help.optionDescription(o))),
    inherited: help.visibleGlobalOptions(cmd).map((o: Option) => item(help.optionTerm(o), help.optionDescription(o))),
    commands: help
      .visibleCommands(cmd)
      .filter((c) => c.name() !== 'help')
      .map((c) => ({ ...item(name([...words, c.name()]), help.subcommandDescription(c)), words: [...words, c.name()] })),
    notes: after.trim(),
    examples,
  };
}

// Markdown.

/** Text outside code: what Markdown would read as markup or HTML is escaped. */
const md = (s: string) => s.replace(/[\\*<>[\]]/g, (c) => `\\${c}`);
const code = (s: string) => (s.includes('`') ? `\`\` ${s} \`\`` : `\`${s}\``);
const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text}\n\`\`\``;

/** How one page links to another: a file of its own in docs/, or an anchor in the one reference. */
type Link = (words: string[]) => string;
const fileLink: Link = (words) => `${slug(words)}.md`;
const anchorLink: Link = (words) => `#${slug(words)}`;

function markdownPage(p: Page, level: number, link: Link): string {
  const h = (n: number) => '#'.repeat(level + n);
  const list = (items: Item[]) => items.map((i) => `- ${code(i.term)}${i.description ? `: ${md(i.description)}` : ''}`).join('\n');
  const parts = [`${h(0)} ${name(p.words)}`, md(p.description), fence('sh', p.usage)];
  if (p.args.length) parts.push(`${h(1)} Arguments`, list(p.args));
  if (p.commands.length) parts.push(`${h(1)} Commands`, p.commands.map((c) => `- [${code(c.term)}](${link(c.words)}): ${md(c.description)}`).join('\n'));
  if (p.options.length) parts.push(`${h(1)} Options`, list(p.options));
  if (p.inherited.length) parts.push(`${h(1)} Inherited options`, list(p.inherited), md(GLOBAL_OPTIONS_LINE));
  if (p.notes) parts.push(`${h(1)} Notes`, fence('text', p.notes));
  if (p.examples.length) parts.push(`${h(1)} Examples`, fence('sh', p.examples.join('\n')));
  if (p.words.length) parts.push(`See also: ${p.words.map((_, i) => `[${code(name(p.words.slice(0, i)))}](${link(p.words.slice(0, i))})`).join(', ')}`);
  return `${parts.join('\n\n')}\n`;
}

function markdownTopic(topic: string, t: Topic, level: number): string {
  return `${'#'.repeat(level)} sct help ${topic}\n\n${md(t.summary[0].toUpperCase() + t.summary.slice(1))}.\n\n${fence('text', t.text().trim())}\n`;
}

// man(7).

/**
 * Text in roff: backslashes escaped, a line never read as a request, `-` a real minus
 * (copy-paste), and anything not ASCII (…, —) a named code point, which every man reader
 * takes, with or without an input-encoding pass.
 */
const roff = (s: string) =>
  s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^[.']/gm, '\\&$&')
    .replace(/[^\x00-\x7f]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
const manItems = (items: Item[]) => items.map((i) => `.TP\n\\fB${roff(i.term)}\\fR\n${roff(i.description)}`).join('\n');
/** Flag values and field names (ready_for_review) must not be broken at a hyphen, nor spaced out. */
const NO_HYPHENS = '.nh\n.ad l';
const nofill = (text: string) => `.nf\n${roff(text)}\n.fi`;

function manPage(p: Page, topics: string[]): string {
  const sections = [
    `.TH "${roff(slug(p.words).toUpperCase())}" "1" "" "sct" "sct manual"`,
    NO_HYPHENS,
    `.SH NAME\n${roff(slug(p.words))} \\- ${roff(p.summary)}`,
    `.SH SYNOPSIS\n${nofill(p.usage)}`,
    `.SH DESCRIPTION\n${roff(p.description)}`,
  ];
  if (p.args.length) sections.push(`.SH ARGUMENTS\n${manItems(p.args)}`);
  // Named as their pages are (sct-orders(1)): what `man` finds.
  if (p.commands.length) sections.push(`.SH COMMANDS\n${p.commands.map((c) => `.TP\n\\fB${roff(slug(c.words))}\\fR(1)\n${roff(c.description)}`).join('\n')}`);
  if (p.options.length) sections.push(`.SH OPTIONS\n${manItems(p.options)}`);
  if (p.inherited.length) sections.push(`.SH INHERITED OPTIONS\n${manItems(p.inherited)}\n.PP\n${roff(GLOBAL_OPTIONS_LINE)}`);
  if (p.notes) sections.push(`.SH NOTES\n${nofill(fitLines(p.notes, 72))}`);
  if (p.examples.length) sections.push(`.SH EXAMPLES\n${nofill(p.examples.join('\n'))}`);
  // The root page leads to the help topics' pages too.
  const related = [...p.words.map((_, i) => slug(p.words.slice(0, i))), ...p.commands.map((c) => slug(c.words)), ...(p.words.length ? [] : topics.map((t) => `sct-help-${t}`))];
  if (related.length) sections.push(`.SH SEE ALSO\n${related.map((r) => `\\fB${roff(r)}\\fR(1)`).join(', ')}`);
  return `${sections.join('\n')}\n`;
}

function manTopic(topic: string, t: Topic): string {
  const id = `sct-help-${topic}`;
  return [
    `.TH "${roff(id.toUpperCase())}" "1" "" "sct" "sct manual"`,
    NO_HYPHENS,
    `.SH NAME\n${roff(id)} \\- ${roff(t.summary)}`,
    // Unfilled, as written, but within the 72 columns `man` leaves at 80 (it indents by 7).
    `.SH DESCRIPTION\n${nofill(fitLines(t.text().trim(), 72))}`,
    `.SH SEE ALSO\n\\fBsct\\fR(1)`,
    '',
  ].join('\n');
}

/**
 * The manual's files, keyed by path from the repository's root: docs/README.md (the index),
 * docs/sct-….md and man/sct-….1 for each command and topic.
 */
export function renderManual(program: Command, topics: Record<string, Topic>): Map<string, string> {
  const files = new Map<string, string>();
  const pages = commandsOf(program).map(({ cmd, words }) => pageOf(cmd, words));
  for (const p of pages) {
    files.set(`docs/${slug(p.words)}.md`, markdownPage(p, 1, fileLink));
    files.set(`man/${slug(p.words)}.1`, manPage(p, Object.keys(topics)));
  }
  for (const [topic, t] of Object.entries(topics)) {
    files.set(`docs/sct-help-${topic}.md`, markdownTopic(topic, t, 1));
    files.set(`man/sct-help-${topic}.1`, manTopic(topic, t));
  }
  const index = [
    '# The sct manual',
    'Generated from the command tree by `npm run docs` (do not edit: a test compares these pages with the tree). ' +
      'The same pages are man pages in `man/` (`man -l man/sct-orders-list.1`; `man sct` after a global install), ' +
      'and `sct help reference` prints them all as one Markdown document.',
    '## Commands',
    pages
      .filter((p) => p.words.length)
      .map((p) => `${'  '.repeat(p.words.length - 1)}- [${code(name(p.words))}](${fileLink(p.words)}): ${md(p.summary)}`)
      .join('\n'),
    '## Help topics',
    Object.entries(topics)
      .map(([topic, t]) => `- [${code(`sct help ${topic}`)}](sct-help-${topic}.md): ${md(t.summary)}`)
      .join('\n'),
    '## More',
    '- [guide.md](guide.md): everything sct does, topic by topic\n- [development.md](development.md): how sct is built and tested\n- [decisions.md](decisions.md): design choices, and why',
  ];
  files.set('docs/README.md', `${index.join('\n\n')}\n`);
  return files;
}

/** `sct help reference`: every command and topic as one Markdown document, linked by anchors. */
export function renderReference(program: Command, topics: Record<string, Topic>): string {
  const pages = commandsOf(program).map(({ cmd, words }) => markdownPage(pageOf(cmd, words), 2, anchorLink));
  const topicPages = Object.entries(topics).map(([topic, t]) => markdownTopic(topic, t, 2));
  return ['# sct reference\n', ...pages, ...topicPages].join('\n');
}
