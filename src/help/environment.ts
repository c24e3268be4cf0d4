// The environment variables sct reads, once: `sct --help` names the main ones, `sct help
// environment` (and its page in docs/ and man/) describes each.
import { wrap } from './wrap.js';

interface Variable {
  /** As written in help: one name, or a few that act together. */
  names: string;
  effect: string;
  /** Named in the line of `sct --help` too. */
  inRootHelp?: boolean;
}

export const ENVIRONMENT_VARIABLES: readonly Variable[] = [
  {
    names: 'SCT_TOKEN',
    inRootHelp: true,
    effect:
      "API token; overrides the profile's. It goes to whatever base URL is in force. When the service refuses it (401) the hint names SCT_TOKEN: set a valid one or unset it to use the profile's.",
  },
  {
    names: 'SCT_BASE_URL',
    inRootHelp: true,
    effect:
      'base URL ending in /api; overrides the profile\'s (--base-url overrides both). A stored token goes only to the origin it was stored with: another one is "not logged in to <URL>" (exit 4) unless SCT_TOKEN is set.',
  },
  {
    names: 'SCT_ALLOW_HTTP=1',
    effect: 'send the token over plain http:// to a host other than this machine (refused, exit 2, without it; loopback is always allowed); warns on every command.',
  },
  {
    names: 'SCT_PROFILE',
    inRootHelp: true,
    effect: 'profile name (as --profile); a name that is no profile is exit 2, except for auth login and config set, which create it.',
  },
  { names: 'SCT_CONFIG_DIR', inRootHelp: true, effect: 'directory of config.json and of bulk-run journals.' },
  { names: 'XDG_CONFIG_HOME', effect: 'without SCT_CONFIG_DIR, the configuration is in $XDG_CONFIG_HOME/sct (else ~/.config/sct); on macOS in ~/Library/Preferences/sct and on Windows in %APPDATA%\\sct, whatever it says.' },
  { names: 'NO_COLOR', inRootHelp: true, effect: 'no colour (any non-empty value); also --no-color and CLICOLOR=0.' },
  { names: 'FORCE_COLOR, CLICOLOR_FORCE=1', effect: 'colour even when not at a terminal (--no-color still wins); FORCE_COLOR=0 turns it off.' },
  { names: 'TERM=dumb', effect: 'a terminal that cannot draw: no colour and no spinners; so is one that names no TERM (but on Windows).' },
  { names: 'COLUMNS', effect: 'the width tables fit when the terminal does not say its own.' },
  {
    names: 'HTTPS_PROXY, HTTP_PROXY, NO_PROXY (and lower-case)',
    inRootHelp: true,
    effect: 'the proxy to send requests through; --verbose says a proxy is used without printing its URL.',
  },
  { names: 'NODE_EXTRA_CA_CERTS', effect: 'extra CA certificates (a corporate TLS proxy); sct doctor checks the file.' },
  { names: 'CI', effect: 'never prompt, page or draw a spinner, even at a terminal (any value but empty, false or 0, as CI services set it); only SCT_PAGER still pages.' },
  {
    names: 'SCT_PAGER, PAGER',
    effect:
      'at a terminal, data longer than the screen goes through this pager: SCT_PAGER, else PAGER, else less -FRX when installed (and TERM is set, not dumb); cat or empty turns it off. Never when stdout is not a terminal, never for prompts, and in a CI job only SCT_PAGER. A pager that is not installed is not started: one warning, and the output goes to the terminal.',
  },
  { names: 'LESS', effect: "the pager's own options; FRX when it is not set." },
  { names: 'SHELL', effect: 'the shell `sct completion` writes a script for when none is named.' },
  {
    names: 'XDG_CACHE_HOME',
    effect:
      "sct keeps V8's compiled code of its own files in $XDG_CACHE_HOME/sct (else ~/.cache/sct, ~/Library/Caches/sct, %LOCALAPPDATA%\\sct\\Cache), one file per installed copy, command, Node version and file of sct's, mode 0600, so every run after the first starts faster; a file that is not the user's own, or that others may write, is never read.",
  },
  { names: 'NODE_DISABLE_COMPILE_CACHE=1', effect: "no compiled-code cache (Node's own switch, honoured for sct's as well)." },
];

/** `sct help environment`. */
export function environmentText(): string {
  return `Environment variables:\n\n${ENVIRONMENT_VARIABLES.map((v) => `  ${v.names}\n${wrap(v.effect, 96, '      ')}\n`).join('')}`;
}

/** The line of `sct --help`. */
export function environmentLine(): string {
  return `Environment: ${ENVIRONMENT_VARIABLES.filter((v) => v.inRootHelp)
    .map((v) => v.names.replace(' (and lower-case)', ''))
    .join(', ')}.`;
}
