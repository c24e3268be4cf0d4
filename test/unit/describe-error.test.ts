// How a failure below HTTP is said: in sct's words on every Node, whatever advice a Node's own
// message carries for people who run `node` themselves.
import { describe, expect, it } from 'vitest';
import { describeError } from '../../src/api/retry.js';

const tlsError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('describeError', () => {
  it("says an untrusted certificate alike on Node 20, 22 and 24 (Node 24 adds advice to run Node.js with a flag, which sct's user does not)", () => {
    const node20 = describeError(tlsError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'), 'localhost:8443');
    const node24 = describeError(
      tlsError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate; if the root CA is installed locally, try running Node.js with --use-system-ca'),
      'localhost:8443',
    );
    expect(node24).toBe(node20);
    expect(node20).toBe('the TLS certificate of localhost:8443 is not trusted (unable to verify the first certificate): behind a corporate TLS proxy, give its CA certificate in NODE_EXTRA_CA_CERTS=/path/to/ca.pem (sct doctor checks it)');
    const selfSigned = describeError(tlsError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate; if the root CA is installed locally, try running Node.js with --use-system-ca'), 'localhost:8443');
    expect(selfSigned).toContain('is not trusted (self-signed certificate):');
  });
});
