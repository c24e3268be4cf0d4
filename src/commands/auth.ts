import type { Command } from 'commander';
import type { Context } from '../context.js';
import type { Factory } from './shared/command.js';
import { ApiClient, missingApiPrefix } from '../api/client.js';
import { AuthError, UsageError } from '../errors.js';
import { maskToken } from '../config/settings.js';
import { displayName, type Me } from '../api/schemas/accounts.js';
import { fetchMe } from './whoami.js';
import { readAll } from './shared/body.js';
import { writeOne } from '../output/format.js';
import { stripControl } from '../output/sanitize.js';
import type { Column } from '../output/columns.js';

export function register(program: Command, f: Factory): void {
  const auth = program.command('auth').description('Log in, log out and show the login status');
  auth
    .command('login')
    .description('Store a token for the profile after checking it with the service')
    .option('--with-token', 'read the token from stdin')
    .addHelpText('after', '\nThe token is never taken as a flag value: it would land in shell history and `ps`.\nExample: sct auth login --base-url https://sct.example.com/api --with-token < token.txt')
    .action(f.action<LoginOptions>((ctx, opts) => login(ctx, opts)));
  auth
    .command('status')
    .description('Show base URL, user, company and where the token comes from (exit 4 when not logged in)')
    .action(f.action((ctx) => status(ctx)));
  auth
    .command('logout')
    .description("Forget the profile's token")
    .action(f.action((ctx) => logout(ctx)));
  auth
    .command('token')
    .description('Print the token (for piping into other tools)')
    .action(f.action((ctx) => printToken(ctx)));
}

export interface LoginOptions {
  withToken?: boolean;
}

export async function login(ctx: Context, opts: LoginOptions): Promise<void> {
  const s = ctx.settings({ creating: true });
  if (!s.baseUrl) {
    throw new UsageError('no base URL: pass --base-url https://…/api (it is stored in the profile)');
  }
  let token: string;
  let source: string;
  if (opts.withToken) {
    token = (await readAll(ctx.io.stdin)).trim();
    source = 'standard input (--with-token)';
    if (!token) throw new UsageError('no token on stdin (--with-token reads it from standard input)');
  } else if (ctx.io.canPrompt()) {
    token = (await ctx.prompter.password('Paste your API token:')).trim();
    source = 'the prompt';
    if (!token) throw new UsageError('no token given');
  } else {
    throw new UsageError('no terminal to prompt for the token', {}, 'pipe it in: sct auth login --with-token < token.txt');
  }

  const warning = missingApiPrefix(s.baseUrl);
  if (warning) ctx.io.warn(warning);

  // Verify before storing: a token the service rejects (or that cannot be sent) is never written.
  const client = new ApiClient({ baseUrl: s.baseUrl, token, tokenSource: source, env: ctx.env, signal: ctx.signal });
  let me: Me;
  try {
    me = await fetchMe(client);
  } catch (err) {
    if (err instanceof AuthError) throw new AuthError(`the service rejected this token (401 on GET /accounts/me)`, 401);
    throw err;
  } finally {
    await client.close();
  }
  ctx.config().setMany(s.profile, { base_url: s.baseUrl, token });
  if (ctx.env.SCT_TOKEN) ctx.io.warn('SCT_TOKEN is set in the environment and takes precedence over the stored token');
  ctx.io.info(
    `${ctx.io.colorErr.green('✓')} Logged in to ${s.baseUrl} as ${stripControl(displayName(me))}` +
      (me.company?.name ? ` (${stripControl(me.company.name)})` : '') +
      ` — profile "${s.profile}"`,
  );
}

export async function status(ctx: Context): Promise<void> {
  const s = ctx.settings();
  if (!s.token) throw new AuthError(`not logged in (profile "${s.profile}")`, null, 'run `sct auth login` or set SCT_TOKEN');
  // What is configured here is printed even when the service cannot say who the token belongs
  // to: the profile, base URL and token source are what to check when it is down or says no.
  let me: Me | undefined;
  let failure: unknown;
  try {
    me = await fetchMe(ctx.client());
  } catch (err) {
    failure = err;
  }
  const info = {
    profile: s.profile,
    base_url: s.baseUrl ?? null,
    base_url_source: s.baseUrlSource,
    user: me ? { id: me.id, name: displayName(me), email: me.email ?? null } : null,
    company: me?.company ? { id: me.company.id, name: me.company.name } : null,
    role: me?.auth_group?.name ?? null,
    token: maskToken(s.token),
    token_source: s.tokenSource === 'env' ? 'SCT_TOKEN' : 'profile',
  };
  const detail: Column[] = [
    { header: 'Profile', path: 'profile' },
    { header: 'Base URL', path: 'base_url', value: (r) => (r.base_url ? `${r.base_url} (from ${r.base_url_source})` : '(none)') },
  ];
  if (me) {
    const user = me;
    detail.push(
      { header: 'User', path: 'user.name', value: () => `${displayName(user)} (id ${user.id})` },
      { header: 'Company', path: 'company.name', value: () => (user.company ? `${user.company.name} (id ${user.company.id})` : '') },
      { header: 'Role', path: 'role' },
    );
  }
  detail.push({ header: 'Token', path: 'token', value: (r) => `${r.token} (from ${r.token_source})` });
  await writeOne(ctx.io, info, { ...ctx.output([]), detail });
  if (failure) throw failure;
}

export async function logout(ctx: Context): Promise<void> {
  const s = ctx.settings();
  // Whether there was a token is decided by the write itself, under the config lock: a check made
  // before it could be undone by another process's write in between.
  const removed = ctx.config().unset(s.profile, 'token');
  ctx.io.info(removed ? `Logged out of profile "${s.profile}".` : `Profile "${s.profile}" had no stored token.`);
  if (ctx.env.SCT_TOKEN) ctx.io.warn('SCT_TOKEN is still set in the environment and is used by every command');
}

export async function printToken(ctx: Context): Promise<void> {
  const s = ctx.settings();
  if (!s.token) throw new AuthError(`not logged in (profile "${s.profile}")`, null, 'run `sct auth login`');
  await ctx.io.write(s.token + '\n');
}
