// What a file command's `--dry-run -o json` prints: the requests it would send, each
// {method, path, body}, as every dry run prints them.
interface Planned {
  method: string;
  path: string;
  body: Record<string, unknown> & { operations?: Array<Record<string, unknown>> };
}

/** The bodies of the POSTs a dry run lists, in order; throws on anything but a POST. */
export function dryRunBodies(stdout: string): Array<Record<string, any>> {
  const requests = JSON.parse(stdout) as Planned[];
  for (const r of requests) if (r.method !== 'POST') throw new Error(`a dry run of a file lists POSTs only, not ${r.method} ${r.path}`);
  return requests.map((r) => r.body);
}

/** The invitations of `invitations bulk-create --dry-run -o json`, across its requests. */
export function dryRunInvitations(stdout: string): Array<Record<string, unknown>> {
  return dryRunBodies(stdout).flatMap((b) => b.operations as Array<Record<string, unknown>>);
}
