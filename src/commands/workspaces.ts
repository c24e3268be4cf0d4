// workspaces list/switch/current. The service keeps the active workspace per user (POST
// /accounts/workspaces/switch); the profile records the last one switched to, so `current` can
// say when the service's differs (switched in the web app, or with another profile).
import { cleanCell } from '../util/sanitize.js';
import type { Context } from '../context.js';
import { DRY_RUN_OPTION } from './shared/dry-run.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import type { OptionsOf } from './shared/options.js';
import { PATHS } from '../api/paths.js';
import { COLUMNS } from '../output/columns.js';
import { writeOne } from '../output/format.js';
import { InterruptedError, SctError, UsageError } from '../errors.js';
import { checkFilterPairs, LIST_OPTIONS, listQuery, pageOptions, runList } from './shared/list.js';
import { parseId } from './shared/crud.js';
import { fetchMe } from '../api/me.js';
import { WORKSPACE_FILTERS } from '../api/filters/workspaces.js';
import { setNamedFilters } from './shared/filters.js';

interface Workspace {
  workspace_id?: number;
  workspace_name?: string;
  id?: number;
  name?: string;
  type?: string;
}

const LIST_WORKSPACES_OPTIONS = [{ filters: WORKSPACE_FILTERS }, { alias: 'country', of: 'country-code' }, ...LIST_OPTIONS] as const;

export type ListWorkspacesOptions = OptionsOf<typeof LIST_WORKSPACES_OPTIONS>;

export const register = registerOf({
  name: 'workspaces',
  leaves: [
    defineLeaf({
      name: 'list',
      summary: 'List the workspaces (companies) you belong to',
      prints: 'workspace',
      options: LIST_WORKSPACES_OPTIONS,
      examples: ['sct workspaces list', 'sct workspaces list --type active,trial --json id,name'],
      run: (ctx, opts) => listWorkspaces(ctx, opts),
    }),
    defineLeaf({
      name: 'switch',
      summary: 'Make another workspace the active one, and record it in the profile',
      prints: 'workspaceSwitch',
      args: [{ name: '[company-id]', description: 'workspace (company) id from `sct workspaces list`; a picker on a terminal when left out' }],
      options: [DRY_RUN_OPTION],
      examples: ['sct workspaces switch 1', 'sct workspaces switch'],
      run: (ctx, _o, [id]) => switchWorkspace(ctx, id),
    }),
    defineLeaf({
      name: 'current',
      summary: 'Show the active workspace',
      // The company of the user's profile, and the user's role in it (from the same answer).
      prints: 'company',
      extraFields: ['role'],
      examples: ['sct workspaces current', 'sct workspaces current --json id,name'],
      run: (ctx) => currentWorkspace(ctx),
    }),
  ],
});

export async function listWorkspaces(ctx: Context, opts: ListWorkspacesOptions): Promise<void> {
  const query = listQuery(opts);
  setNamedFilters(query, WORKSPACE_FILTERS, opts);
  // The active workspace is the service's (GET /accounts/me), marked in the table as `config
  // profiles` marks its current one. JSON, NDJSON and CSV are the objects as the service sent
  // them (the spec's output rules): no field of sct's own in them.
  const table = ctx.format() === 'table' && ctx.flags.jq === undefined;
  // Its flags are checked before the read of the current workspace, as runList would after it.
  pageOptions(opts);
  checkFilterPairs(opts.filter, query);
  const activeId = table ? (await fetchMe(ctx.client())).company?.id : undefined;
  await runList(ctx, {
    path: PATHS.workspaces,
    query,
    flags: opts,
    columns: COLUMNS.workspace,
    noun: 'workspaces',
    map: table ? (w) => ({ ...w, current: activeId !== undefined && workspaceId(w as Workspace) === activeId }) : undefined,
  });
}

const workspaceId = (w: Workspace) => w.workspace_id ?? w.id;
const workspaceName = (w: Workspace) => w.workspace_name ?? w.name ?? `workspace ${workspaceId(w)}`;

/** On a terminal, a choice among the user's workspaces; elsewhere the id is required. */
async function pickWorkspace(ctx: Context): Promise<number> {
  if (!ctx.io.canPrompt()) throw new UsageError(`give the workspace id: sct workspaces switch COMPANY_ID (${ctx.io.noPromptReason()})`);
  const client = ctx.client();
  const [me, list] = await Promise.all([fetchMe(client), collect(client.paginate<Workspace>(PATHS.workspaces, {}, { all: true }))]);
  if (list.length === 0) throw new UsageError('you belong to no workspace');
  return ctx.prompter.select(
    'Switch to which workspace?',
    list.map((w) => ({
      // The type (active, trial, test…) is the workspace's plan; "current" is the one you are in.
      name: [`${workspaceName(w)} (${workspaceId(w)})`, w.type ? `type: ${w.type}` : undefined, workspaceId(w) === me.company?.id ? 'current' : undefined]
        .filter(Boolean)
        .join(' · '),
      value: workspaceId(w)!,
    })),
    // Enter keeps you where you are, as gh's pick lists start on the current value.
    me.company?.id,
  );
}

async function collect<T>(pages: AsyncIterable<{ results: T[] }>): Promise<T[]> {
  const out: T[] = [];
  for await (const p of pages) for (const w of p.results) out.push(w);
  return out;
}

export async function switchWorkspace(ctx: Context, id: string | undefined): Promise<void> {
  const companyId = id === undefined ? await pickWorkspace(ctx) : parseId(id, 'COMPANY_ID');
  const res = await ctx.client().request<{ message?: string } | null>({
    method: 'POST',
    path: PATHS.workspaceSwitch,
    body: { company_id: companyId },
  });
  // The documents show only a message; an answer that names another workspace is not recorded as
  // this one (a user's profile too, as a redirect to /accounts/me answers: its active company).
  const data = res.data && typeof res.data === 'object' ? (res.data as { company_id?: unknown; active_user_company_id?: unknown }) : undefined;
  const answered = typeof data?.company_id === 'number' ? data.company_id : data?.active_user_company_id;
  if (typeof answered === 'number' && answered !== companyId) {
    throw new SctError(`POST ${PATHS.workspaceSwitch}: the service answered that it switched to workspace ${answered}, not ${companyId}: nothing was recorded`);
  }
  const s = ctx.settings();
  // A profile with a token of its own records that token's workspace: a switch made with
  // SCT_TOKEN (another user, perhaps) is that token's, and recorded there it could be a
  // workspace the profile's own user cannot use. A profile without a token goes by SCT_TOKEN.
  const recorded = !(s.tokenSource === 'env' && s.tokenStorage !== 'none');
  if (recorded) {
    try {
      await ctx.config().set(s.profile, 'workspace', String(companyId));
    } catch (err) {
      // The service has switched (for the web app and every profile of this user too): never a
      // failure that reads as nothing done. Ctrl-C while the lock is waited for stays Ctrl-C.
      if (err instanceof InterruptedError) {
        const stopped = new InterruptedError(`interrupted after the service switched to workspace ${companyId}: profile "${s.profile}" did not record it`);
        stopped.hint = `run \`sct workspaces switch ${companyId}\` again to record it`;
        throw stopped;
      }
      const e = new SctError(`switched to workspace ${companyId} on the service, but profile "${s.profile}" could not record it: ${(err as Error).message}`);
      e.hint = `run \`sct workspaces switch ${companyId}\` again once the config file can be written (\`sct workspaces current\` shows where the service is)${err instanceof SctError && err.hint ? `; ${err.hint}` : ''}`;
      throw e;
    }
  }
  const message = typeof res.data?.message === 'string' ? res.data.message : `Switched to workspace ${companyId}.`;
  ctx.io.info(`${ctx.io.colorErr.green('✓')} ${cleanCell(message)} (${recorded ? `recorded in profile "${s.profile}"` : `not recorded in profile "${s.profile}": the token is SCT_TOKEN's, not the profile's own`})`);
  // Scripts get the answer as data; people have the line above.
  if (ctx.format() !== 'table') await writeOne(ctx.io, { company_id: companyId, message, profile: s.profile }, ctx.output([]));
}

export async function currentWorkspace(ctx: Context): Promise<void> {
  const me = await fetchMe(ctx.client());
  const s = ctx.settings();
  const company = me.company ?? null;
  if (!company) {
    const e = new SctError(`no active workspace: GET ${PATHS.me} names no company`);
    e.hint = 'run `sct workspaces list`, then `sct workspaces switch ID`';
    throw e;
  }
  if (s.workspace !== undefined && s.workspace !== String(company.id)) {
    ctx.io.warn(
      `profile "${s.profile}" records workspace ${s.workspace}, but the active one is ${company.id} ` +
        `(switched elsewhere?); \`sct workspaces switch ${company.id}\` records it, \`sct workspaces switch ${s.workspace}\` goes back`,
    );
  }
  await writeOne(ctx.io, { ...company, role: me.auth_group?.name ?? null }, {
    ...ctx.output([]),
    detail: [
      { header: 'ID', path: 'id' },
      { header: 'Name', path: 'name' },
      { header: 'Type', path: 'type' },
      { header: 'Country', path: 'country' },
      { header: 'Your role', path: 'role' },
    ],
  });
}
