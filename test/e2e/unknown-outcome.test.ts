// A change whose answer never came (the connection cut after the service acted, every retry
// alike) may have been made: a create says which key learns its outcome; an update and a delete,
// which have none, say so too, and how to see whether it was, before the command is run again
// (a delete run again on an order it did delete answers 404).
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({}, { inProcess: true });

describe('an update or a delete whose answer never came', () => {
  it('says it may have been made, and how to see whether it was', async () => {
    const made = await t.sct(['origins', 'create', '--name', 'Farm Lost Answer', '--country-code', 'CI', '--location', '6.8,-5.2', '-o', 'json']);
    expect(made.exitCode, made.stderr).toBe(0);
    const id = String(JSON.parse(made.stdout).id);

    t.sb.setFaults({ dropFirst: 10, dropAfterProcessing: true, methods: ['PATCH'] });
    const update = await t.sctIn(['origins', 'update', id, '--name', 'Farm Renamed'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(update.exitCode).toBe(1);
    expect(update.stderr).toContain(`hint: it may have been updated (its answer never came): \`sct origins get ${id}\` shows whether it was, before you send the change again`);
    expect((await t.api(`/origins/${id}`)).name).toBe('Farm Renamed');

    t.sb.setFaults({ dropFirst: 10, dropAfterProcessing: true, methods: ['DELETE'] });
    const del = await t.sctIn(['origins', 'delete', id, '--yes'], { clientOptions: { retryBaseMs: 1 } });
    t.sb.setFaults({});
    expect(del.exitCode).toBe(1);
    expect(del.stderr).toContain(`hint: it may have been deleted (its answer never came): \`sct origins get ${id}\` shows whether it is still there`);
  });
});
