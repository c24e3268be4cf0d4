// user-config get/set: the per-user configuration the service keeps (its fields are not
// documented). `set` merges keys: `sct user-config set theme=dark table.density=compact`; a dotted
// key's siblings are read first and sent with it.
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { PATHS } from '../api/paths.js';
import { writeOne } from '../output/format.js';
import { UsageError } from '../errors.js';
import { buildBody } from './shared/body.js';
import { savedObject } from '../api/answers.js';
import { parseLooseValue, setDotted, splitKeyValue } from './shared/flags.js';
import type { ApiClient } from '../api/client.js';
import { isPlainObject } from '../util/objects.js';

const SET_OPTIONS = [
  { flags: '--file <file>', description: 'the whole request body as JSON (- for stdin); key=value pairs go under its config' },
  DRY_RUN_OPTION,
] as const;

export const register = registerOf({
  name: 'user-config',
  description: 'Read and change your per-user configuration on the service',
  leaves: [
    defineLeaf({
      name: 'get',
      summary: 'Show your configuration and the actions available to you',
      examples: ['sct user-config get', 'sct user-config get --json'],
      run: async (ctx) => writeOne(ctx.io, await ctx.client().get(PATHS.userConfig), ctx.output([])),
    }),
    defineLeaf({
      name: 'set',
      summary: 'Change configuration keys (the others are kept)',
      args: [{ name: '[key=value...]', description: 'configuration keys to set; value parsed as JSON when it parses, dotted keys nest' }],
      options: SET_OPTIONS,
      examples: ['sct user-config set language=en', 'sct user-config set notifications.email=false'],
      run: (ctx, opts, pairs) => setUserConfig(ctx, opts, pairs),
    }),
  ],
});

/**
 * The pairs go under `config`, the object `get` shows them in; a --file body is sent as it is,
 * for a service that wants another shape.
 */
export async function setUserConfig(ctx: Context, opts: OptionsOf<typeof SET_OPTIONS>, pairs: string[]): Promise<void> {
  if (pairs.length === 0 && !opts.file) throw new UsageError('nothing to set: give key=value pairs or --file');
  const bare = pairs.find((p) => !/^[^=]+=/.test(p));
  if (bare !== undefined) throw new UsageError(`invalid "${bare}": expected key=value (e.g. language=en)`);
  // Every key checked as typed before anything is read or sent.
  for (const pair of pairs) {
    const [key, value] = splitKeyValue(pair, 'key=value');
    setDotted({}, key, parseLooseValue(value, pair));
  }
  const fromFile = opts.file ? await buildBody({ file: opts.file }, {}, ctx.io.stdin, ctx.signal) : {};
  const client = ctx.client();
  const config = withNested(fromFile.config, await nestedNow(client, pairs));
  const body = await buildBody({ set: pairs.map((p) => `config.${p}`) }, { ...fromFile, config }, ctx.io.stdin, ctx.signal);
  const updated = savedObject(await client.request({ method: 'PATCH', path: PATHS.userConfig, body }), 'PATCH', PATHS.userConfig, 'configuration');
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Updated your configuration`);
  await writeOne(ctx.io, updated, ctx.output([]));
}

/**
 * A --file body's `config` with the objects the dotted keys go into as the service holds them
 * now, under what the file gives: the file's keys win, the others are kept.
 */
function withNested(filed: unknown, now: Record<string, unknown> | undefined): unknown {
  if (now === undefined || (filed !== undefined && !isPlainObject(filed))) return filed;
  const given = (filed ?? {}) as Record<string, unknown>;
  const config: Record<string, unknown> = { ...now, ...given };
  for (const [top, held] of Object.entries(now)) {
    const mine = given[top];
    if (isPlainObject(mine) && isPlainObject(held)) config[top] = { ...held, ...mine };
  }
  return config;
}

/**
 * The objects dotted keys go into, as the service holds them now. The API does not say how deep
 * its PATCH merges: `notifications.push=true` sent alone may replace the whole `notifications`,
 * so its other keys are read first and sent with it ("the others are kept"). Undefined when no
 * key is dotted: top-level keys are merged by the service.
 */
async function nestedNow(client: ApiClient, pairs: string[]): Promise<Record<string, unknown> | undefined> {
  const tops = new Set(pairs.map((p) => p.slice(0, p.indexOf('='))).filter((k) => k.includes('.')).map((k) => k.slice(0, k.indexOf('.'))));
  if (tops.size === 0) return undefined;
  const answer = await client.get(PATHS.userConfig);
  const config = isPlainObject(answer) && isPlainObject(answer.config) ? answer.config : {};
  const now: Record<string, unknown> = {};
  for (const top of tops) if (isPlainObject(config[top])) now[top] = structuredClone(config[top]);
  return now;
}
