import { describe, expect, it } from 'vitest';
import { credentialsInText, maskAuthorization, redactSignedUrl, redactUrl, withoutCredentials, withoutToken } from '../../src/util/redact.js';

describe('redact', () => {
  it('hides the user and password of a URL, leaving the rest', () => {
    expect(withoutCredentials('https://me:s3cret@api.example/api?x=1')).toBe('https://***@api.example/api?x=1');
    expect(withoutCredentials('https://tokenonly@api.example/api')).toBe('https://***@api.example/api');
    expect(withoutCredentials('https://api.example/api')).toBe('https://api.example/api');
    expect(withoutCredentials('not a url, http://a:b@c/')).toBe('not a url, http://***@c/');
  });

  it('hides the query of a URL on another host, and a signed URL\'s last segment', () => {
    expect(redactUrl('http://u:p@files.example/blob?sig=abc')).toBe('http://files.example/blob?…');
    expect(redactSignedUrl('https://files.example/b/SIGNATURE?X-Sig=abc')).toBe('https://files.example/b/…?…');
  });

  it('hides credentials inside a text and the credential of an Authorization value', () => {
    expect(credentialsInText('connect to http://proxyuser:proxysecret@10.0.0.1:3128 failed')).toBe('connect to http://***@10.0.0.1:3128 failed');
    // A password with "/", "?" or "#" unencoded makes no URL: everything up to its last "@" is hidden.
    for (const c of ['/', '?', '#']) expect(credentialsInText(`invalid base URL: https://u:pa${c}SECRET@sct.example/api`)).toBe('invalid base URL: https://***@sct.example/api');
    // A URL that parses keeps what follows its host, "@" in its query included.
    expect(credentialsInText('GET https://sct.example/api/x?email=a@b.example')).toBe('GET https://sct.example/api/x?email=a@b.example');
    expect(credentialsInText('GET https://u:p@sct.example/api/x?email=a@b.example')).toBe('GET https://***@sct.example/api/x?email=a@b.example');
    expect(maskAuthorization('Bearer sct_demo_owner_cacao')).toBe('Bearer sct_…****');
    expect(maskAuthorization('Bearer')).toBe('********');
  });

  it('masks a token whose first characters read as a replacement pattern ($&, $`, $\') as any other', () => {
    for (const token of ['$&secretTOKENvalue123', "$'secretTOKENvalue123", '$`secretTOKENvalue123', '$$secretTOKENvalue123']) {
      const masked = withoutToken(`invalid ID "${token}": expected a whole number`, token);
      expect(masked, token).not.toContain('secretTOKEN');
    }
  });
});
