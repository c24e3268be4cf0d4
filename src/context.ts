// What every command's run function receives: I/O, settings, a lazily built API client,
// a prompter, the interrupt signal and the clock. Tests build one with fakes instead of
// patching globals (see test/helpers/context.ts).
import type { IOStreams } from './output/iostreams.js';
import { startSpinner, type Spinner } from './output/spinner.js';
import type { Prompter } from './prompt.js';
import { ConfigStore } from './config/config.js';
import { configDir } from './config/paths.js';
import { checkProfileExists, loginHint, notLoggedIn, resolveSettings, setOutputCommand, statusCommand, type Settings } from './config/settings.js';
import { ApiClient, IN_FLIGHT_GRACE_MS, type ClientOptions, type PlannedRequest } from './api/client.js';
import { missingApiPrefix, parseBaseUrl } from './api/endpoint.js';
import { abortableSleep, type RateLimitCause } from './api/retry.js';
import { UsageError } from './errors.js';
import { parseFormat, type OutputOptions } from './output/format.js';
import { FORMATS, type Format } from './output/formats.js';
import type { Column } from './output/columns.js';
import { csvColumnsOf, type Printed } from './output/fields.js';
import { parseDuration } from './util/numbers.js';
import { formatWait } from './util/format.js';

/** The global options, as commander parsed them. */
import type { GlobalFlags } from './global-flags.js';


/** --max-wait without the flag (its help says 10m). */
export const DEFAULT_MAX_WAIT_MS = 600_000;
export type { GlobalFlags };


export interface Context {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  flags: GlobalFlags;
  prompter: Prompter;
  signal: AbortSignal;
  /** The command line as typed after `sct` (a bulk run's rerun hint repeats it). */
  argv?: readonly string[];
  /** The directory a relative --out is taken from, and that a file written there must stay in. */
  cwd: string;
  /**
   * --dry-run of a command that writes: its clients record every write in `planned` instead of
   * sending it; nothing is asked (a confirmation is taken as yes, a missing field is an error).
   */
  dryRun: boolean;
  planned: PlannedRequest[];
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  config(): ConfigStore;
  /**
   * Base URL, token and the rest for this run. A named profile that does not exist is a usage
   * error, unless the command is `creating` it.
   */
  settings(o?: { creating?: boolean }): Settings;
  /**
   * The API client for this run; throws AuthError (exit 4) when a token is needed and missing.
   * `finishInFlight`: Ctrl-C lets requests already sent finish (bulk runs), instead of
   * abandoning them.
   */
  client(options?: ClientChoice): ApiClient;
  /**
   * --timeout and --max-wait as the clients take them (milliseconds); a bad value is a usage
   * error, whether or not a client is made (doctor checks them before its checks).
   */
  requestLimits(): { timeoutMs: number; maxWaitMs: number };
  /**
   * Output format: -o/--json/--jq > profile's output > table. A profile output this sct does not
   * know is a usage error (`orTable`: table, for doctor, which reports it as a check).
   */
  format(o?: { orTable?: boolean }): Format;
  /** The fields chosen with --columns or --json FIELDS. */
  columns(): string | undefined;
  output(defaults: Column[], o?: { orTable?: boolean }): OutputOptions;
  /** Why the profile's output cannot be used (a format this sct does not know), if it cannot. */
  profileOutputProblem(): string | undefined;
  /** A spinner on stderr when it is a terminal and not --quiet; otherwise silent. */
  spinner(text: string): Promise<Spinner>;
  /** Answers a yes/no question: --yes, else a prompt on a TTY, else a usage error. */
  confirm(message: string): Promise<boolean>;
  /** Releases sockets at the end of the run. */
  dispose(): Promise<void>;
}

interface ClientChoice {
  auth?: boolean;
  finishInFlight?: boolean;
  /**
   * false: the caller reports a base URL without /api itself (doctor's base_url line), so no
   * warning on stderr says it a second time.
   */
  checkBaseUrl?: boolean;
  /** false: the caller reports a config file others may read itself (doctor's config line): no warning says it twice. */
  checkConfigFile?: boolean;
  /** Never sleep through a rate-limit or Retry-After wait: fail at once (doctor only looks). */
  noWait?: boolean;
  /** A token to send instead of the stored one (auth login checks it before storing it); never cached. */
  token?: { value: string; source: string };
}

export interface ContextDeps {
  io: IOStreams;
  env: NodeJS.ProcessEnv;
  prompter: Prompter;
  signal: AbortSignal;
  argv?: readonly string[];
  /** The current directory (process.cwd() when not given). */
  cwd?: string;
  /** Overrides for the client (tests inject a MockAgent dispatcher or fast retries). */
  clientOptions?: Partial<ClientOptions>;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** `run.printed`: the resource the command prints (its CSV header); `run.dryRun`: --dry-run was given. */
export function createContext(flags: GlobalFlags, deps: ContextDeps, run: { dryRun?: boolean; printed?: Printed } = {}): Context {
  const { env } = deps;
  const dryRun = run.dryRun === true;
  // A dry run asks nothing: what a terminal would be asked for is then required, as in a script,
  // and the messages that say so give that reason where a terminal was there to ask on.
  const io: IOStreams = dryRun
    ? Object.create(deps.io, { canPrompt: { value: () => false }, noPromptReason: { value: () => (deps.io.canPrompt() ? 'a dry run asks nothing' : deps.io.noPromptReason()) } })
    : deps.io;
  const planned: PlannedRequest[] = [];
  let store: ConfigStore | undefined;
  let settings: Settings | undefined;
  const clients = new Map<string, ApiClient>();
  let checkedBaseUrl = false;
  // A command may build more than one client (doctor: with and without the token): one warning.
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (!warned.has(message)) io.warn(message);
    warned.add(message);
  };
  const now = deps.now ?? Date.now;
  // Ctrl-C during a wait is an interrupt like any other (never the signal's raw reason), and the
  // abort listener goes when the wait ends, so long runs do not pile listeners up.
  const sleep = deps.sleep ?? abortableSleep;

  const ctx: Context = {
    io,
    env,
    flags,
    prompter: deps.prompter,
    signal: deps.signal,
    argv: deps.argv,
    cwd: deps.cwd ?? process.cwd(),
    dryRun,
    planned,
    now,
    sleep,
    config() {
      return (store ??= new ConfigStore(configDir(env), deps.signal));
    },
    settings(o = {}) {
      settings ??= resolveSettings(ctx.config(), { profile: flags.profile, baseUrl: flags.baseUrl }, env);
      // The config file is read again only to name the profiles in the error.
      checkProfileExists(settings, () => ctx.config().profileNames(), o.creating);
      return settings;
    },
    client(options = {}) {
      const auth = options.auth !== false;
      const key = `${auth ? 'auth' : 'anon'}${options.finishInFlight ? '+finish' : ''}${options.noWait ? '+nowait' : ''}`;
      const existing = options.token ? undefined : clients.get(key);
      if (existing) return existing;
      // A token being checked is for a profile auth login may be about to create.
      const s = ctx.settings({ creating: options.token !== undefined });
      if (!s.baseUrl) {
        // Nothing set up, no token either: a fresh install is not logged in (exit 4), as `auth status` says.
        if (auth && !options.token && !s.token) throw notLoggedIn(s);
        throw new UsageError(
          'no base URL configured',
          {},
          'run `sct auth login --base-url https://…/api`, set SCT_BASE_URL, or pass --base-url',
        );
      }
      // An invalid base URL is said as such (exit 2), not as "not logged in": no stored token goes to it.
      if (s.baseUrlInvalid) parseBaseUrl(s.baseUrl);
      if (auth && !s.token && !options.token) {
        throw notLoggedIn(s);
      }
      // The token is kept in a 0600 file: one others may read (a chmod, a copy, a backup restored)
      // is said each time it is sent, as doctor says it, without changing the file behind the user's back.
      if (auth && !options.token && options.checkConfigFile !== false && s.tokenSource === 'profile' && s.tokenStorage === 'config file') {
        const mode = ctx.config().fileMode();
        if (mode !== null && (mode & 0o077) !== 0) {
          const path = ctx.config().path;
          warnOnce(`${path} holds the token and has mode ${mode.toString(8)}: other users of this machine may read it; \`chmod 600 "${path}"\``);
        }
      }
      // A stored base URL was checked when it was set; a --base-url is checked on each run.
      const warning = s.baseUrlSource === 'flag' && !checkedBaseUrl && options.checkBaseUrl !== false ? missingApiPrefix(s.baseUrl) : undefined;
      checkedBaseUrl = true;
      if (warning) io.warn(warning);
      const limits = ctx.requestLimits();
      const client = new ApiClient({
        baseUrl: s.baseUrl,
        token: options.token?.value ?? (auth ? s.token : undefined),
        loginHint: loginHint(s),
        statusCommand: statusCommand(s),
        profileHasToken: s.storedTokenUsable,
        // Said once as a warning already: a 404's hint does not say it again.
        baseUrlPrefixSaid: s.baseUrlSource === 'flag' && options.checkBaseUrl !== false && missingApiPrefix(s.baseUrl) !== undefined,
        tokenSource:
          options.token?.source ??
          (s.tokenSource === 'env'
            ? 'SCT_TOKEN'
            : s.tokenStorage === 'keyring'
              ? `profile "${s.profile}" (system keyring)`
              : `profile "${s.profile}" in ${ctx.config().path}`),
        timeoutMs: limits.timeoutMs,
        maxWaitMs: options.noWait ? 0 : limits.maxWaitMs,
        env,
        signal: deps.signal,
        abortInFlight: !options.finishInFlight,
        inFlightGraceMs: options.finishInFlight ? Math.min(limits.timeoutMs, IN_FLIGHT_GRACE_MS) : undefined,
        trace: flags.verbose ? (line) => io.error(io.colorErr.dim(line)) : undefined,
        warn: warnOnce,
        onRateLimitWait: (ms, asked, cause, signal) => rateLimitCountdown(ctx, ms, asked, cause, signal),
        now,
        sleep,
        dryRun: dryRun ? planned : undefined,
        ...deps.clientOptions,
      });
      // One given token's client is the caller's to close; it is closed at the end of the run too.
      clients.set(options.token ? `${key}+given${clients.size}` : key, client);
      return client;
    },
    requestLimits() {
      return {
        // Given empty (`--timeout "$T"` with T unset), a value is refused, as `dds wait --timeout ''` is.
        timeoutMs: flags.timeout !== undefined ? parseDuration(flags.timeout, '--timeout') : 30_000,
        maxWaitMs: flags.maxWait !== undefined ? parseDuration(flags.maxWait, '--max-wait', { allowZero: true }) : DEFAULT_MAX_WAIT_MS,
      };
    },
    format(o) {
      if (flags.json !== undefined) return 'json';
      if (flags.jq !== undefined) return 'json';
      if (flags.output) return parseFormat(flags.output, { geojson: true });
      const fromProfile = safeProfileOutput(ctx);
      if (fromProfile === undefined) return 'table';
      if ((FORMATS as readonly string[]).includes(fromProfile)) return fromProfile as Format;
      if (o?.orTable) return 'table';
      throw new UsageError(ctx.profileOutputProblem()!, {}, `give -o FORMAT, or set it: ${setOutputCommand(ctx.settings().profile)}`);
    },
    profileOutputProblem() {
      const fromProfile = safeProfileOutput(ctx);
      if (fromProfile === undefined || (FORMATS as readonly string[]).includes(fromProfile)) return undefined;
      return `the profile "${ctx.settings().profile}" has output ${JSON.stringify(fromProfile)} (in the config file), which is not one of ${FORMATS.join(', ')}`;
    },
    output(defaults, o) {
      const csvColumns = csvColumnsOf(run.printed);
      return { format: ctx.format(o), columns: ctx.columns(), csvFormulas: flags.csvFormulas, bom: flags.bom, defaults, csvColumns, jq: flags.jq };
    },
    columns() {
      return typeof flags.json === 'string' && flags.json !== '' ? flags.json : flags.columns;
    },
    async spinner(text) {
      const shown = await startSpinner(io, text, deps.signal);
      if (!shown.note) return shown;
      const noted = { note: shown.note };
      spinning.set(ctx, noted);
      return {
        update: shown.update,
        stop: (finalLine) => {
          if (spinning.get(ctx) === noted) spinning.delete(ctx);
          shown.stop(finalLine);
        },
      };
    },
    async confirm(message) {
      if (dryRun) return true;
      // What was shown to be confirmed (a plan in the pager) is closed before what it confirms
      // runs, as a prompt closes it: the writes' progress and results reach the terminal.
      if (flags.yes) {
        await io.endPager();
        return true;
      }
      if (!io.canPrompt()) throw new UsageError(`${message.replace(/\?$/, '')}: confirm with --yes (${io.noPromptReason()})`);
      return deps.prompter.confirm(message, false);
    },
    async dispose() {
      await Promise.all([...clients.values()].map((c) => c.close()));
    },
  };
  return ctx;
}

/** The run's token, to mask where it could be printed; undefined when there is none (or none can be read). */
export function tokenOf(ctx: Context): string | undefined {
  try {
    return ctx.settings().token;
  } catch {
    return undefined;
  }
}

function safeProfileOutput(ctx: Context): string | undefined {
  // A missing or unreadable config must not break `-o`-less commands that never touch it.
  try {
    return ctx.settings().output;
  } catch {
    return undefined;
  }
}

/** When the rate-limit wait a context last said ends (Date.now()), per context. */
const waitSaidUntil = new WeakMap<Context, number>();

/**
 * Sleeps through a rate-limit wait, with a countdown on a terminal. Requests in flight together
 * (a bulk run's) wait for the same reset: the first says it, the others sleep without a word.
 * `asked` is the service's own figure: a line that says the wait says that, not sct's margin on it,
 * and gives the wait's cause: a Retry-After is the service asking, not a budget that resets.
 */
async function rateLimitCountdown(ctx: Context, ms: number, asked: number, cause: RateLimitCause, signal?: AbortSignal): Promise<void> {
  const { io } = ctx;
  const end = ctx.now() + ms;
  if (end <= (waitSaidUntil.get(ctx) ?? 0) + 1000) return ctx.sleep(ms, signal);
  waitSaidUntil.set(ctx, end);
  if (!io.stderrRedraws || io.quiet) {
    const waiting = formatWait(asked);
    io.info(
      `rate limit reached: ${
        cause === 'retry-after'
          ? `waiting ${waiting} as the service asks`
          : cause === 'untold'
            ? `the service gave no reset time, waiting ${waiting} before trying again`
            : `waiting ${waiting} for the budget to reset`
      }`,
    );
    return ctx.sleep(ms, signal);
  }
  // A spinner redraws its line many times a second: the countdown is drawn on it, not under it.
  const spinner = spinning.get(ctx);
  const say = (text: string | undefined) => (spinner ? spinner.note(text) : io.stderr.write(`\r\u001b[2K${text ?? ''}`));
  try {
    for (;;) {
      const left = end - ctx.now();
      if (left <= 0) break;
      say(`rate limit reached: resuming in ${formatWait(left)} (Ctrl-C to stop)`);
      await ctx.sleep(Math.min(1000, left), signal);
    }
  } finally {
    say(undefined);
  }
}

/** The spinner a context shows now, which a rate-limit countdown is drawn on. */
const spinning = new WeakMap<Context, { note(text: string | undefined): void }>();
