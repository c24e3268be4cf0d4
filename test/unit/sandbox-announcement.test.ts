// What `sct sandbox --host …` says of where it listens, without listening anywhere: a test's
// servers are this machine's only (test/e2e/sandbox-process.test.ts runs it on 127.0.0.1).
import { describe, expect, it } from 'vitest';
import { announcement } from '../../src/commands/sandbox.js';

describe('the sandbox announcement', () => {
  it('on every interface: the loopback URL sct can use, and a warning of who else can reach it', () => {
    for (const host of ['0.0.0.0', '::', '[::]']) {
      const said = announcement(host, `http://${host === '0.0.0.0' ? host : '[::]'}:41234/api`);
      expect(said.url).toBe('http://127.0.0.1:41234/api');
      expect(said.where).toBe(`every interface (${host}), as http://127.0.0.1:41234/api from here`);
      expect(said.warning).toBe('every machine that can reach this one can use the demo tokens, read the request log (/_sandbox/requests) and set faults: use --host 127.0.0.1 unless that is meant');
    }
  });

  it('on one address: that URL, no warning', () => {
    expect(announcement('127.0.0.1', 'http://127.0.0.1:41234/api')).toEqual({ url: 'http://127.0.0.1:41234/api', where: 'http://127.0.0.1:41234/api' });
    expect(announcement('localhost', 'http://localhost:41234/api').warning).toBeUndefined();
  });
});
