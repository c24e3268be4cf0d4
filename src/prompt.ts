// Prompts are bound to the injected streams (stdin, stderr) so data on stdout stays clean and
// tests can drive them. @inquirer/prompts is loaded only when a prompt is actually shown.
import type { Readable, Writable } from 'node:stream';
import type { IOStreams } from './output/iostreams.js';
import { InterruptedError, UsageError } from './errors.js';
import { cleanCell } from './util/sanitize.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface InputOptions {
  /** true, or the message to show under the prompt while the answer is not acceptable. */
  validate?: (value: string) => true | string;
}

export interface Prompter {
  /** A secret, masked; `validate` refuses an answer with its message, and the question is asked again. */
  password(message: string, validate?: (value: string) => true | string): Promise<string>;
  input(message: string, options?: InputOptions): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  /** A pick list; the cursor starts on `start` when it is one of the values (the current workspace). */
  select<T>(message: string, choices: Choice<T>[], start?: T): Promise<T>;
}

/**
 * Inquirer colours by the environment alone (NO_COLOR, the terminal): with sct's colour off on
 * stderr (--no-color too) its prompts get plain styles, so the flag reaches them as NO_COLOR does.
 */
const plain = (text: string) => text;
/** Inquirer's own theme (@inquirer/core, @inquirer/select), its words and marks kept, its colours left out. */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '✔' },
  spinner: { interval: 80, frames: ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] },
  style: {
    answer: plain,
    message: plain,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: plain,
    highlight: plain,
    key: (text: string) => `<${text}>`,
    disabled: (text: string) => `- ${text}`,
    description: plain,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' • '),
  },
};

export function createPrompter(io: IOStreams, signal?: AbortSignal): Prompter {
  const theme = io.colorErrEnabled ? undefined : PLAIN_THEME;
  type Asked = { input: Readable; output: Writable; clearPromptOnDone: boolean; signal: AbortSignal };
  const guard = async <T>(what: string, run: (p: typeof import('@inquirer/prompts'), context: Asked) => Promise<T>): Promise<T> => {
    if (!io.canPrompt()) throw new UsageError(`${what} is required (${io.noPromptReason()})`);
    const prompts = await import('@inquirer/prompts');
    // Ctrl-D (the end of the terminal's input) closes inquirer's reader without settling its
    // question: nothing is left to run, and the process would end 0, a success with nothing done.
    // Node says so before it ends (beforeExit): the question is then aborted, which lets inquirer
    // leave the screen as it leaves it after Ctrl-C before sct says "interrupted" below it.
    const drained = new AbortController();
    const ended = () => drained.abort();
    process.once('beforeExit', ended);
    // The question's context: the run's signal, or the end of the terminal's input, aborts it.
    const context = { input: io.stdin, output: io.stderr, clearPromptOnDone: false, signal: signal ? AbortSignal.any([signal, drained.signal]) : drained.signal };
    try {
      // A run stopped already (Ctrl-C while a pager showed the plan) asks nothing: inquirer would
      // take the terminal (raw mode) before it sees the signal, and never give it back.
      if (signal?.aborted) throw new InterruptedError();
      return await run(prompts, context);
    } catch (err) {
      // Ctrl-C typed at the prompt (ExitPromptError), or a signal sent to the process (the run's signal aborts it).
      if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) throw new InterruptedError();
      throw err;
    } finally {
      process.off('beforeExit', ended);
    }
  };
  // Questions and choices name what the service holds (an order's external_id, a workspace's
  // name, a role's): stripped of control characters here, whoever built them, and kept on one
  // line (a line break in an external_id would draw a question of its own).
  const s = cleanCell;
  return {
    password: (message, validate) => guard('a value', (p, context) => p.password({ message: s(message), mask: '*', validate, theme }, context)),
    input: (message, options = {}) => {
      const validate = options.validate && ((v: string) => {
        const verdict = options.validate!(v);
        return verdict === true ? true : s(verdict);
      });
      return guard('a value', (p, context) => p.input({ message: s(message), validate, theme }, context));
    },
    // Inquirer's confirm reads any answer that starts with "y" as yes ("you must be kidding, no"
    // deleted): y, yes, n or no (any case), Enter for the default, anything else asked again.
    confirm: (message, defaultValue = false) =>
      guard('confirmation (--yes)', async (p, context) => {
        const answer = await p.input(
          { message: `${s(message)} ${defaultValue ? '(Y/n)' : '(y/N)'}`, validate: (v) => /^\s*(y|yes|n|no)?\s*$/i.test(v) || 'answer y or n', theme },
          context,
        );
        const word = answer.trim().toLowerCase();
        return word === '' ? defaultValue : word.startsWith('y');
      }),
    select: (message, choices, start) =>
      guard('a choice', (p, context) => pick(p, context, s(message), choices.map((c) => ({ ...c, name: s(c.name), description: c.description === undefined ? undefined : s(c.description) })), start)),
  };

  /**
   * A pick list erases itself when it is done, whatever the ending: left on screen after Ctrl-C,
   * its menu reads as if it were still waiting. What remains is one line, as for the other
   * prompts: the question and the answer, or the question alone when it was interrupted.
   */
  async function pick<T>(p: typeof import('@inquirer/prompts'), context: Asked, message: string, choices: Choice<T>[], start?: T): Promise<T> {
    const c = io.colorErr;
    try {
      // One line each: a service string (a workspace's name) with a line break would draw what
      // looks like another choice.
      const shown = choices.map((choice) => ({ ...choice, name: cleanCell(choice.name) }));
      const value = await p.select({ message, choices: shown, default: start, theme }, { ...context, clearPromptOnDone: true });
      const chosen = shown.find((choice) => choice.value === value);
      io.stderr.write(`${c.green('✔')} ${c.bold(message)} ${c.cyan(chosen?.name ?? String(value))}\n`);
      return value;
    } catch (err) {
      if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) io.stderr.write(`? ${c.bold(message)}\n`);
      throw err;
    }
  }
}
