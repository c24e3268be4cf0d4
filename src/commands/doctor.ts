import { accessSync, constants, readFileSync, readlinkSync, statSync } from 'node:fs';
import { danglingLinkOn, fileErrorText, nearestExisting } from '../util/files.js';
import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { CONFIG_FILE_MODE } from '../config/config.js';
import { missingApiPrefix } from '../api/endpoint.js';
import { proxyFor, proxyFromEnv, proxyProblem } from '../api/proxy-env.js';
import { discardBody } from '../api/transport.js';
import { mediaType } from '../api/answers.js';
import { PATHS } from '../api/paths.js';
import { AnswerError, ApiError, AuthError, ConfigFileError, InterruptedError, RateLimitError, SctError, UsageError } from '../errors.js';
import type { ApiClient } from '../api/client.js';
import { displayName } from '../api/me.js';
import { parseMe } from '../api/me.js';
import { maskToken, withoutCredentials } from '../util/redact.js';
import { notLoggedIn, type Settings, setOutputCommand } from '../config/settings.js';
import { cleanCell, stripControl } from '../util/sanitize.js';
import { writeList } from '../output/format.js';
import type { Column } from '../output/columns.js';
import { formatDuration } from '../util/format.js';

type Level = 'ok' | 'warn' | 'fail';
export interface Check {
  name: string;
  level: Level;
  detail: string;
}

export const register = registerOf(defineLeaf({
  name: 'doctor',
  summary: 'Check config and file mode, token, base URL, proxy and CA settings, clock skew, rate budget and Node version',
  prints: 'doctorCheck',
  examples: ['sct doctor', 'sct doctor --verbose'],
  run: (ctx) => doctor(ctx),
}));

const MIN_NODE = [20, 18, 1];

export function nodeVersionOk(version: string): boolean {
  const [a, b, c] = version.replace(/^v/, '').split('.').map(Number);
  for (const [i, n] of [a, b, c].entries()) {
    if (n !== MIN_NODE[i]) return n > MIN_NODE[i];
  }
  return true;
}

// Whoever may write the config directory may replace the config file (and with it the base URL
// the token is sent to), or plant files sct then reads or writes through. Windows has neither
// these mode bits nor uids: there the checks are left to its ACLs.
const POSIX = process.platform !== 'win32';

function configDirCheck(dir: string): Omit<Check, 'name'> | null {
  if (!POSIX) return null;
  let mode: number;
  try {
    mode = statSync(dir).mode & 0o777;
  } catch (err) {
    // Made by the first write (a login, a config set): the environment alone (a CI job) needs none.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      // Reads need none, but bulk runs, sync (their journals) and a login do: a directory that
      // cannot be made (HOME=/ for a container's user, a read-only file system) is said now.
      const link = danglingLinkOn(dir);
      if (link) return { level: 'warn', detail: `${dir} does not exist and cannot be made: ${link} is a link to ${readlinkSync(link)}, which does not exist; bulk runs, sync and a login need it: set SCT_CONFIG_DIR to a directory you can write` };
      const parent = nearestExisting(dir);
      try {
        accessSync(parent, constants.W_OK);
      } catch (cause) {
        return { level: 'warn', detail: `${dir} does not exist and cannot be made: ${parent} cannot be written (${fileErrorText(cause)}); bulk runs, sync and a login need it: set SCT_CONFIG_DIR to a directory you can write` };
      }
      return { level: 'ok', detail: `${dir} does not exist yet (nothing is stored)` };
    }
    return { level: 'fail', detail: `${dir}: ${(err as Error).message}` };
  }
  const owner = notMine(dir);
  if (owner) return { level: 'fail', detail: `${dir} ${owner}` };
  // Its owner's own access taken away (chmod 000): every read of the config then fails.
  if ((mode & 0o700) !== 0o700) return { level: 'fail', detail: `${dir} (mode ${mode.toString(8)}) is not readable, writable and searchable by its owner: chmod 700 "${dir}"` };
  // As a config file others may write: whoever may write the directory may replace the file.
  if (mode & 0o022) return { level: 'fail', detail: `${dir} is writable by other users, who could replace the config file (and the base URL your token is sent to): chmod 700 "${dir}"` };
  return { level: 'ok', detail: `${dir} (mode ${mode.toString(8)})` };
}

/** Why a file of ours owned by someone else is a failure, or null when it is ours (or cannot be told). */
function notMine(path: string): string | null {
  const uid = POSIX ? process.getuid?.() : undefined;
  if (uid === undefined) return null;
  let owner: number;
  try {
    owner = statSync(path).uid;
  } catch {
    return null;
  }
  if (owner === uid) return null;
  return `is owned by uid ${owner}, not by you (uid ${uid}): that user can change your configuration, the base URL your token is sent to included; use a directory of your own (SCT_CONFIG_DIR) or chown it`;
}

function exposure(mode: number): string {
  if (mode & 0o022) return ' (writable by other users)';
  if (mode & 0o044) return ' (readable by other users)';
  return '';
}

export async function doctor(ctx: Context): Promise<void> {
  const checks: Check[] = [];
  const add = (name: string, level: Level, detail: string) => checks.push({ name, level, detail });
  // A bad --timeout or --max-wait is the command line's fault (exit 2), not the base URL's.
  ctx.requestLimits();

  add('node', nodeVersionOk(process.versions.node) ? 'ok' : 'fail', `Node ${process.versions.node} (needs >= ${MIN_NODE.join('.')})`);

  const store = ctx.config();
  const dirCheck = configDirCheck(store.dir);
  if (dirCheck) add('config_dir', dirCheck.level, dirCheck.detail);
  const mode = store.fileMode();
  const fileOwner = notMine(store.path);
  // Without a file, SCT_BASE_URL and SCT_TOKEN are enough (a CI job): nothing to advise then.
  const fromEnvironment = Boolean(ctx.env.SCT_BASE_URL && ctx.env.SCT_TOKEN);
  if (mode === null) add('config', fromEnvironment ? 'ok' : 'warn', fromEnvironment ? `${store.path} does not exist: SCT_BASE_URL and SCT_TOKEN are used` : `${store.path} does not exist yet (run \`sct auth login --base-url https://…/api\`)`);
  else if (fileOwner) add('config', 'fail', `${store.path} ${fileOwner}`);
  // 600 or stricter (400: read-only to its owner) keeps the token to its owner.
  else if ((mode & ~CONFIG_FILE_MODE) !== 0) add('config', 'fail', `${store.path} has mode ${mode.toString(8)}${exposure(mode)}, should be 600: chmod 600 "${store.path}"`);
  else if (mode !== CONFIG_FILE_MODE) add('config', 'ok', `${store.path} (mode ${mode.toString(8)}: sct cannot write it, \`config set\` and \`auth login\` will fail)`);
  else add('config', 'ok', `${store.path} (mode 600)`);
  // Every other command stops on it before it sends anything; doctor says it, with its checks.
  const outputProblem = ctx.profileOutputProblem();
  if (outputProblem) add('config', 'fail', `${outputProblem}: ${setOutputCommand(ctx.settings().profile)}`);

  add('proxy', ...proxyCheck(ctx));
  const ca = ctx.env.NODE_EXTRA_CA_CERTS;
  if (ca) {
    add('ca', ...(await caCheck(ca)));
  } else add('ca', 'ok', 'system certificates (NODE_EXTRA_CA_CERTS not set)');

  let s: Settings;
  try {
    s = ctx.settings();
  } catch (err) {
    // A broken config file is this check's finding, not the end of the others' lines.
    if (!(err instanceof ConfigFileError)) throw err;
    const line = checks.findIndex((c) => c.name === 'config');
    checks[line] = { name: 'config', level: 'fail', detail: withHint(err) };
    for (const name of ['base_url', 'token']) add(name, 'fail', 'not checked: the config file cannot be read');
    return report(ctx, checks);
  }

  let probeDate: string | string[] | undefined;
  if (!s.baseUrl) {
    add('base_url', 'fail', 'no base URL configured (sct auth login --base-url …, SCT_BASE_URL or --base-url)');
  } else {
    // The base_url line below says it when the URL lacks /api: no stderr warning repeats it.
    const started = ctx.now();
    try {
      // Made here: a proxy variable that names no proxy fails this check, as the proxy line says.
      const anon = ctx.client({ auth: false, checkBaseUrl: false, noWait: true });
      // Any HTTP answer proves reachability; the public endpoint 404s cheaply without a token.
      const res = await anon.stream({ path: PATHS.countries, query: { limit: 1 } }).catch((err) => {
        // An answer sct cannot use (a 204, a redirect to nowhere) is no API there: the base URL's fault.
        if (err instanceof SctError && err.status !== null && !(err instanceof AnswerError)) {
          // An answer all the same (401 without a token): its Date is the server's clock.
          if (err instanceof ApiError) probeDate = err.answer?.headers.date;
          return null;
        }
        throw err;
      });
      probeDate = res?.headers.date ?? probeDate;
      if (res) await discardBody(res.body);
      const answered = `${withoutCredentials(s.baseUrl)} answered in ${ctx.now() - started} ms (from ${s.baseUrlSource})`;
      // A web page is something else answering at that URL: a captive portal, a web app, a
      // proxy's sign-in page. Reachable, but not the API. (JSON under another name, text/plain
      // or text/json, is read as JSON by every command: no warning.)
      const type = res ? mediaType(res.headers) : '';
      const webPage = res && /^(text\/html|application\/xhtml\+xml)$/.test(type)
        ? `${withoutCredentials(s.baseUrl)} answered with ${stripControl(type)}, not the API's JSON (GET ${PATHS.countries}): is it the service's URL, or a proxy's or network's sign-in page?`
        : undefined;
      const warning = webPage ?? missingApiPrefix(s.baseUrl);
      add('base_url', warning ? 'warn' : 'ok', webPage ?? (warning ? `${answered}; ${warning}` : answered));
    } catch (err) {
      // Ctrl-C is the user stopping doctor, not a check that failed.
      if (err instanceof InterruptedError) throw err;
      add('base_url', 'fail', `${withoutCredentials(s.baseUrl)}: ${(err as Error).message}`);
    }
  }

  const clock = (header: string | string[] | undefined) => {
    const date = Date.parse(String(header ?? ''));
    if (Number.isFinite(date)) {
      const skew = Math.round((ctx.now() - date) / 1000);
      const level = Math.abs(skew) > 300 ? 'fail' : Math.abs(skew) > 30 ? 'warn' : 'ok';
      // sct reads the service's times (a rate limit's reset) against the service's own clock;
      // what else on this machine reads the clock is off by as much.
      const advice = level === 'ok' ? '' : ': set the clock right (NTP: `timedatectl set-ntp true`, or the system settings)';
      const off = Math.abs(skew) < 60 ? `${Math.abs(skew)}s` : formatDuration(Math.abs(skew) * 1000);
      add('clock', level, `local clock is ${off} ${skew >= 0 ? 'ahead of' : 'behind'} the server${advice}`);
    } else if (header === undefined) add('clock', 'warn', 'the server sent no Date header');
    else add('clock', 'warn', `the server's Date header cannot be read (${quotedHeader(header)})`);
  };
  if (s.tokenWithheld) {
    add('token', 'fail', withHint(notLoggedIn(s)));
  } else if (s.baseUrlInvalid && !s.token) {
    // The base_url line says why; "no token, log in" would send the user after one that is there.
    add('token', 'warn', 'not checked: no stored token goes to an invalid base URL (base_url)');
  } else if (!s.token) {
    add('token', 'fail', `no token: ${s.baseUrl ? 'run `sct auth login` or set SCT_TOKEN' : 'run `sct auth login --base-url https://…/api`, or set SCT_TOKEN and SCT_BASE_URL'}`);
  } else if (s.baseUrl && checks.find((c) => c.name === 'base_url')?.level !== 'fail') {
    const tokenFrom = `${maskToken(s.token)} from ${s.tokenSource === 'env' ? 'SCT_TOKEN' : 'the profile'}`;
    // Never sleeps through a spent rate limit: doctor reports it and goes on.
    let client: ApiClient;
    try {
      client = ctx.client({ checkBaseUrl: false, checkConfigFile: false, noWait: true });
    } catch (err) {
      // A token refused before anything is sent (plain http to another host) is this check's failure.
      if (!(err instanceof UsageError)) throw err;
      add('token', 'fail', withHint(err));
      return report(ctx, checks);
    }
    try {
      const res = await client.request({ path: PATHS.me });
      const me = parseMe(res.data);
      add('token', 'ok', `${tokenFrom}: ${stripControl(displayName(me))}`);
      clock(res.headers.date);
      const rl = client.rateLimit;
      if (rl.remaining !== undefined && rl.limit !== undefined) {
        const low = rl.remaining < rl.limit * 0.1;
        // The client has put the reset on this machine's clock already (by the answer's Date).
        const reset = rl.reset ? ` (resets in ${formatDuration(Math.max(0, rl.reset * 1000 - ctx.now()))})` : '';
        add('rate_limit', low ? 'warn' : 'ok', `${rl.remaining} of ${rl.limit} requests left this hour${reset}`);
      } else if (res.headers['x-ratelimit-remaining'] === undefined && res.headers['x-ratelimit-limit'] === undefined) {
        add('rate_limit', 'warn', 'the server sent no X-RateLimit headers');
      } else {
        const sent = (['remaining', 'limit'] as const).map((k) => `${k[0]!.toUpperCase()}${k.slice(1)} ${quotedHeader(res.headers[`x-ratelimit-${k}`])}`);
        add('rate_limit', 'warn', `the server's X-RateLimit headers cannot be read (${sent.join(', ')})`);
      }
    } catch (err) {
      if (err instanceof InterruptedError) throw err;
      if (err instanceof RateLimitError && err.status !== 503) {
        // The service answered (429, not 401): the token could not be read back, the other
        // checks still can. The clock comes from the base URL's answer instead.
        add('token', 'warn', `${tokenFrom}: not verified, the rate limit is spent`);
        clock(client.serverDate ?? probeDate);
        add('rate_limit', 'warn', `spent, resets in ${formatDuration(Math.max(0, err.resetAt.getTime() - ctx.now()))}`);
        // Where the token came from and, when refused, the hint every command gives (set another
        // SCT_TOKEN, or log in); other hints (a base URL without /api) are the base_url line's.
      } else if ((err instanceof ApiError && (err.status === 404 || err.status >= 500)) || err instanceof AnswerError) {
        // Not the token's verdict: no API at this URL (a wrong path, a sign-in page, text), or a
        // service failing; the token was never put to the API.
        const base = checks.find((c) => c.name === 'base_url')!;
        base.level = 'fail';
        const noApi = missingApiPrefix(s.baseUrl) ?? 'is the path right, ending in /api?';
        const why = err instanceof AnswerError ? `not as the API: ${err.message}` : err.status === 404 ? `has no API there (GET /accounts/me is 404): ${noApi}` : `fails (${err.message})`;
        base.detail = `${withoutCredentials(s.baseUrl)} answers, but ${why}`;
        add('token', 'warn', `${tokenFrom}: not verified, the service did not answer it (base_url)`);
        if (err instanceof ApiError) clock(err.answer?.headers.date ?? probeDate);
      } else add('token', 'fail', `${tokenFrom}: ${err instanceof AuthError ? withHint(err) : (err as Error).message}`);
    }
    // A refused token still came with an answer: the base URL's tells the clock.
    if (!checks.some((c) => c.name === 'clock') && probeDate !== undefined) clock(probeDate);
  } else if (s.baseUrl) {
    // The service did not answer: what only its answer tells is said as not checked, never left out.
    add('token', 'warn', `${maskToken(s.token)} from ${s.tokenSource === 'env' ? 'SCT_TOKEN' : 'the profile'}: not verified, the service did not answer (base_url)`);
  }
  // Without a token to check (none, or withheld from this base URL), the base URL's answer still tells the clock.
  if (!checks.some((c) => c.name === 'clock') && probeDate !== undefined) clock(probeDate);
  if (!checks.some((c) => c.name === 'clock')) add('clock', 'warn', 'not checked: no answer from the service to compare with');
  if (!checks.some((c) => c.name === 'rate_limit')) add('rate_limit', 'warn', 'not checked: no answer from the service');

  return report(ctx, checks);
}

function withHint(err: SctError): string {
  return err.hint ? `${err.message}: ${err.hint}` : err.message;
}

const CHECK_COLUMNS: Column[] = [
  { header: 'LEVEL', path: 'level' },
  { header: 'NAME', path: 'name' },
  { header: 'DETAIL', path: 'detail' },
];

async function report(ctx: Context, checks: Check[]): Promise<void> {
  const output = ctx.output(CHECK_COLUMNS, { orTable: true });
  // The checks are a list like any other for -o, --columns and --jq, and into a pipe (a header,
  // then tab-separated lines); only the plain table at a terminal is doctor's own, its levels
  // coloured.
  if (output.format !== 'table' || output.columns || output.jq !== undefined || !ctx.io.stdoutIsTTY) {
    await writeList(ctx.io, checks, output);
  } else {
    const c = ctx.io.color;
    const tag = { ok: c.green('ok  '), warn: c.yellow('warn'), fail: c.red('fail') };
    // A detail quotes the service (the token's user): one line each, as a table's cells.
    await ctx.io.write(checks.map((k) => `${tag[k.level]}  ${k.name.padEnd(10)}  ${cleanCell(k.detail)}`).join('\n') + '\n');
  }
  const failed = checks.filter((k) => k.level === 'fail');
  if (failed.length) throw new SctError(`${failed.length} check${failed.length > 1 ? 's' : ''} failed: ${failed.map((k) => k.name).join(', ')}`);
}

/** The proxy line: whether one is set, and whether the base URL's requests go through it. */
function proxyCheck(ctx: Context): [Level, string] {
  const problem = proxyProblem(ctx.env);
  if (problem) return ['fail', problem];
  let base: URL | undefined;
  try {
    base = new URL(ctx.settings().baseUrl ?? '');
  } catch {
    base = undefined; // no base URL, or a config file that cannot be read: their own lines say so
  }
  const proxy = proxyFromEnv(ctx.env, base);
  if (!proxy) return ['ok', 'no proxy configured'];
  const userNoProxy = ctx.env.NO_PROXY ?? ctx.env.no_proxy;
  const set = `a proxy is configured in the environment${userNoProxy ? ' (NO_PROXY set)' : ''}`;
  if (!base) return ['ok', set];
  return ['ok', proxyFor(base, proxy) ? `${set}: the base URL goes through it` : `${set}: the base URL is reached directly, not through it`];
}

/**
 * The NODE_EXTRA_CA_CERTS line: the file read and each of its certificates parsed, as Node loads
 * them at start (a certificate it cannot load is ignored with a warning, and the TLS proxy it was
 * for is then refused with no word of why).
 */
async function caCheck(ca: string): Promise<[Level, string]> {
  let text: string;
  try {
    text = readFileSync(ca, 'utf8');
  } catch (err) {
    return ['fail', `NODE_EXTRA_CA_CERTS=${ca} cannot be read: ${fileErrorText(err)}`];
  }
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) return ['fail', `NODE_EXTRA_CA_CERTS=${ca} holds no PEM certificate`];
  const { X509Certificate } = await import('node:crypto');
  for (const [i, pem] of blocks.entries()) {
    try {
      new X509Certificate(pem);
    } catch (err) {
      return ['fail', `NODE_EXTRA_CA_CERTS=${ca}: certificate ${i + 1} of ${blocks.length} does not load (${(err as Error).message}); Node ignores the file`];
    }
  }
  return ['ok', `NODE_EXTRA_CA_CERTS=${ca} (${blocks.length} certificate${blocks.length === 1 ? '' : 's'})`];
}

/** A header's value as a message quotes it: cleaned of control characters, cut when long; "none" when absent. */
function quotedHeader(value: string | string[] | undefined): string {
  if (value === undefined) return 'none';
  const text = stripControl(Array.isArray(value) ? value.join(', ') : value);
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
