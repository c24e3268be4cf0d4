// The connection of a command's first request, opened as sct starts (src/main.ts), before the
// command's code is loaded: over a far link a connection costs a round trip before the request
// can leave, and loading sct takes about as long as a round trip on a near one. The two now
// overlap. A connection only: nothing is written on it until the command sends its request,
// through the client, with every check the client makes (docs/decisions/startup.md).
import { readFileSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { GLOBAL_VALUE_FLAGS } from '../global-flags.js';
import { baseUrlOf, configDir } from '../config/paths.js';
import { hostAndPort, isLoopback, proxyFromEnv } from '../api/proxy-env.js';
import type { EarlyConnection } from '../api/transport.js';

/**
 * What never reaches the service: these groups, these commands, and a bulk command's --template.
 * A hint only: a command left out of these opens a connection it does not use, closed unused.
 */
const LOCAL_GROUPS = new Set(['sandbox', 'config', 'completion', 'help', 'version']);
const LOCAL_COMMANDS = new Set(['auth logout', 'auth token', 'origins check']);
const LOCAL_FLAGS = new Set(['-h', '--help', '--template']);

/** How long the connection waits for its request (src/api/transport.ts keeps idle ones as long). */
const IDLE_MS = 4_000;

// The global options that take a value (GLOBAL_VALUE_FLAGS): the word after one is not a
// command. `--json` takes one only maybe (`--json id`): after it, a word is taken for the
// command, so `sct --json id config list` connects, unused, and closes the connection.

/**
 * The base_url of the profile the run uses, as far as it can be read here: a guess for where to
 * connect, nothing more (the config store, src/config/config.ts, reads and checks the file for
 * the run itself, and reports what is wrong with it). Kept out of the store so that sct's start
 * loads nothing of it.
 */
function storedBaseUrl(env: NodeJS.ProcessEnv, profileFlag: string | undefined): string | undefined {
  try {
    const file = join(configDir(env), 'config.json');
    // Only a file: reading a FIFO put there would wait for a writer before the command began.
    if (!statSync(file).isFile()) return undefined;
    const profiles: unknown = JSON.parse(readFileSync(file, 'utf8')).profiles;
    const name = profileFlag ?? (env.SCT_PROFILE || 'default');
    const profile: unknown = profiles && typeof profiles === 'object' && Object.hasOwn(profiles, name) ? (profiles as Record<string, unknown>)[name] : undefined;
    const url: unknown = profile && typeof profile === 'object' ? (profile as Record<string, unknown>).base_url : undefined;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Connects to the service the command would send to, when it is known without the command's
 * code: the base URL of --base-url, SCT_BASE_URL or the profile (of --profile or SCT_PROFILE).
 * Nothing is opened for a command that never sends (sandbox, config, --help, --template…), through
 * a proxy (undici opens its own), nor to a plain-http host the client would refuse. Anything that
 * stops it here (a damaged config file, a malformed URL) is left for the command to report. Only
 * the origin is taken from the base URL: the client checks the rest before it sends.
 */
export function connectEarly(argv: readonly string[], env: NodeJS.ProcessEnv, o: { idleMs?: number } = {}): EarlyConnection | undefined {
  const given: { profile?: string; baseUrl?: string } = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (LOCAL_FLAGS.has(arg)) return undefined;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (GLOBAL_VALUE_FLAGS.has(flag)) {
      const value = inline ?? argv[++i];
      if (flag === '--profile') given.profile = value;
      if (flag === '--base-url') given.baseUrl = value;
    } else if (!arg.startsWith('-')) words.push(arg);
  }
  if (words.length === 0 || LOCAL_GROUPS.has(words[0]!) || LOCAL_COMMANDS.has(words.slice(0, 2).join(' '))) return undefined;
  const [baseUrl] = baseUrlOf(given.baseUrl, env, () => storedBaseUrl(env, given.profile));
  let base: URL;
  try {
    base = new URL(baseUrl ?? '');
  } catch {
    return undefined;
  }
  const https = base.protocol === 'https:';
  if (!https && base.protocol !== 'http:') return undefined;
  if (proxyFromEnv(env, base)) return undefined;
  if (!https && !isLoopback(base.hostname) && env.SCT_ALLOW_HTTP !== '1') return undefined;
  const { host, port } = hostAndPort(base);
  const idleMs = o.idleMs ?? IDLE_MS;
  const opened = Date.now();
  let socket: Socket | undefined = connect({ host, port });
  // A connection that fails is dropped: the request then opens its own, and reports its error.
  socket.once('error', () => socket?.destroy());
  // As the agent's idle connections: one left unused for 4 s (a command waiting at a prompt) is
  // closed, before a server or a NAT on the way drops it under the request that comes later.
  socket.setTimeout(idleMs);
  socket.once('timeout', () => socket?.destroy());
  // Waiting unused, it keeps no process alive.
  socket.unref();
  return {
    take(url) {
      const s = socket;
      const to = hostAndPort(url);
      if (!s || s.destroyed || url.protocol !== base.protocol || to.host !== host || to.port !== port) return undefined;
      // Its timer runs on the event loop, which a long synchronous step (a large file parsed)
      // holds: the age is counted here too, and what a server said unasked (a 408) is not taken
      // for an answer.
      if (Date.now() - opened > idleMs || s.readableLength > 0) {
        s.destroy();
        socket = undefined;
        return undefined;
      }
      socket = undefined;
      s.removeAllListeners('error').removeAllListeners('timeout').setTimeout(0);
      return s;
    },
    close() {
      socket?.destroy();
      socket = undefined;
    },
  };
}
