// user-config get/set: the per-user configuration the service keeps (its fields are not
// documented). `set` merges keys: `sct user-config set theme=dark table.density=compact`.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import { addExamples, type Factory } from './shared/command.js';
import { addDryRunOption } from './shared/dry-run.js';
import { PATHS } from '../api/paths.js';
import { writeOne } from '../output/format.js';
import { UsageError } from '../errors.js';
import { buildBody, type BodyFlags } from './shared/body.js';

export function register(program: Command, f: Factory): void {
  const userConfig = program.command('user-config').description('Read and change your per-user configuration on the service');
  addExamples(
    userConfig
    .command('get')
    .description('Show your configuration and the actions available to you'),
    ['sct user-config get', 'sct user-config get --json'],
  ).action(f.action(async (ctx) => writeOne(ctx.io, await ctx.client().get(PATHS.userConfig), ctx.output([]))));
  addExamples(
    addDryRunOption(userConfig
    .command('set')
    .argument('[key=value...]', 'configuration keys to set; value parsed as JSON when it parses, dotted keys nest')
    .option('--file <file>', 'the whole request body as JSON (- for stdin); key=value pairs go under its config')
    .description('Change configuration keys (the others are kept)')),
    ['sct user-config set language=en', 'sct user-config set notifications.email=false'],
  ).action(f.action<BodyFlags>((ctx, opts, pairs) => setUserConfig(ctx, opts, pairs)));
}

/**
 * The pairs go under `config`, the object `get` shows them in; a --file body is sent as it is,
 * for a service that wants another shape.
 */
export async function setUserConfig(ctx: Context, opts: BodyFlags, pairs: string[]): Promise<void> {
  if (pairs.length === 0 && !opts.file) throw new UsageError('nothing to set: give key=value pairs or --file');
  const body = await buildBody({ file: opts.file, set: pairs.map((p) => `config.${p}`) }, {}, ctx.io.stdin);
  const updated = await ctx.client().patch(PATHS.userConfig, body);
  ctx.io.info(`${ctx.io.colorErr.green('✓')} Updated your configuration`);
  await writeOne(ctx.io, updated, ctx.output([]));
}
