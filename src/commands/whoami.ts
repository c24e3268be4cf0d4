import type { Context } from '../context.js';
import { defineLeaf, registerOf } from './shared/spec.js';
import { fetchMe, type Me } from '../api/me.js';
import { writeOne } from '../output/format.js';
import { withoutCredentials } from '../util/redact.js';

export const register = registerOf(defineLeaf({
  name: 'whoami',
  summary: 'Show the logged-in user, company and role',
  prints: 'me',
  examples: ['sct whoami', 'sct whoami --json first_name,last_name,company.name'],
  run: (ctx) => whoami(ctx),
}));

export async function whoami(ctx: Context): Promise<void> {
  const me = await fetchMe(ctx.client());
  await writeOne(ctx.io, me, {
    ...ctx.output([]),
    detail: [
      { header: 'User', path: 'id', value: (r) => `${[r.first_name, r.last_name].filter(Boolean).join(' ')} (id ${r.id})` },
      { header: 'Job title', path: 'job_title' },
      { header: 'Company', path: 'company', value: (r) => (r.company ? `${(r.company as Me['company'])?.name} (id ${(r.company as Me['company'])?.id})` : '') },
      { header: 'Role', path: 'auth_group.name' },
      // A base URL may carry a user and password (a gateway's): shown masked, as auth status shows it.
      {
        header: 'Base URL',
        path: '_',
        value: () => {
          const url = ctx.settings().baseUrl;
          return url && withoutCredentials(url);
        },
      },
    ],
  });
}
