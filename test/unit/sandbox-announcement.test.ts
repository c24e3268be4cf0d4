// What `sct sandbox --host …` says of where it listens, and how it reads a request's target on
// an IPv6 host, without listening anywhere: a test's servers are this machine's only
// (test/e2e/sandbox-process.test.ts runs it on 127.0.0.1).
import { describe, expect, it } from 'vitest';
import { announcement } from '../../src/commands/sandbox.js';
import { requestTarget } from '../../src/sandbox/server.js';

describe('the sandbox announcement', () => {
  it('on every interface, however --host spells it: the loopback URL sct can use, and a warning of who else can reach it', () => {
    const spellings: Array<[string, string, string]> = [
      ['0.0.0.0', '0.0.0.0', 'http://0.0.0.0:41234/api'],
      ['0', '0.0.0.0', 'http://0:41234/api'],
      ['::', '::', 'http://[::]:41234/api'],
      ['::0', '::', 'http://[::0]:41234/api'],
      ['0:0:0:0:0:0:0:0', '::', 'http://[0:0:0:0:0:0:0:0]:41234/api'],
    ];
    for (const [host, bound, listening] of spellings) {
      const said = announcement(host, bound, listening);
      expect(said.url, host).toBe('http://127.0.0.1:41234/api');
      expect(said.where).toBe(`every interface (${host}), as http://127.0.0.1:41234/api from here`);
      expect(said.warning).toBe('every machine that can reach this one can use the demo tokens, read the request log (/_sandbox/requests) and set faults: use --host 127.0.0.1 unless that is meant');
    }
  });

  it('on one address: that URL, no warning', () => {
    expect(announcement('127.0.0.1', '127.0.0.1', 'http://127.0.0.1:41234/api')).toEqual({ url: 'http://127.0.0.1:41234/api', where: 'http://127.0.0.1:41234/api' });
    expect(announcement('localhost', '127.0.0.1', 'http://localhost:41234/api').warning).toBeUndefined();
    expect(announcement('::1', '::1', 'http://[::1]:41234/api').warning).toBeUndefined();
  });
});

describe('a request target on the sandbox', () => {
  it('is read on an IPv6 host as on any other (--host ::1 answered every request 400)', () => {
    expect(requestTarget('/api/accounts/me?x=1', '::1').pathname).toBe('/api/accounts/me');
    expect(requestTarget('/api/orders', '127.0.0.1').searchParams.size).toBe(0);
    expect(() => requestTarget('http://[', '127.0.0.1')).toThrow();
  });
});
