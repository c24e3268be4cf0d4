// sct api as a raw request tool, the built sct against a server on 127.0.0.1 that answers each
// request as told and records it as it came (method, path and query, headers, the body's bytes):
// what the user typed or gave in a file reaches the service unchanged, and every answer, a
// failure included, is shown as gh api shows it.
import { beforeEach, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { truncateSync, writeFileSync } from 'node:fs';
import { constants as bufferConstants } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { removeDir, runSct, runSctIn, tempDir } from '../helpers/sct.js';
import { useLocalServer } from '../helpers/local-server.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
let dir = '';

/** What each path answers; anything else echoes the request as JSON. */
const ANSWERS: Record<string, (res: ServerResponse) => void> = {
  '/api/page': (res) => json(res, { count: 2, next: null, previous: null, results: [{ id: 1, name: 'a', x: 1 }, { id: 2, name: 'b', x: 2 }] }),
  '/api/array': (res) => json(res, [{ id: 1, name: 'a' }, { id: 2, name: 'b' }]),
  '/api/text': (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  },
  '/api/string': (res) => json(res, 'abc'),
  '/api/null': (res) => json(res, null),
  '/api/nothing': (res) => {
    res.writeHead(204);
    res.end();
  },
  '/api/empty': (res) => {
    // 200, chunked, no byte of body.
    res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    res.end();
  },
  '/api/gzipped': (res) => {
    // As a real server answers a HEAD: the GET's encoding and length, no body.
    const body = gzipSync(JSON.stringify({ a: 1 }));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(body.length) });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  },
  '/api/latin1': (res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
    res.end(Buffer.from('{"name":"Caf\u00e9"}', 'latin1'));
  },
  // What a Windows server means by ISO-8859-1 (and the Encoding Standard reads so): 0x92 is ’.
  '/api/windows-1252': (res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=iso-8859-1' });
    res.end(Buffer.from([...Buffer.from('{"name":"Caf\u00e9 d', 'latin1'), 0x92, 0x80, ...Buffer.from('"}')]));
  },
  '/api/not-utf8': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.from('{"name":"Caf\u00e9"}', 'latin1'));
  },
  '/api/bom': (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Café"}')]));
  },
  '/api/utf16': (res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-16le' });
    res.end(Buffer.from('{"echo":"tok sct_test_token"}', 'utf16le'));
  },
  '/api/single-quoted': (res) => {
    res.writeHead(200, { 'content-type': "application/json; charset='utf-8'" });
    res.end('{"name":"Café"}');
  },
  '/api/error-latin1': (res) => {
    res.writeHead(400, { 'content-type': 'application/json; charset=iso-8859-1' });
    res.end(Buffer.from('{"name":["C\u00f4te invalide"]}', 'latin1'));
  },
  '/api/zstd': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd' });
    res.end(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]));
  },
  '/api/unauthorized': (res) => {
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="api"' });
    res.end(JSON.stringify({ detail: 'Invalid token.' }));
  },
  '/api/html': (res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>Sign in</body></html>');
  },
  '/api/broken': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r-7' });
    res.end('{"id": 1,');
  },
  // JSON in Latin-1 where UTF-8 is the default: é as the one byte 0xE9.
  '/api/created-latin1': (res) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(Buffer.from('{"id":1,"n":"\xe9"}', 'latin1'));
  },
  '/api/created-broken': (res) => {
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end('{"id": 1,');
  },
  '/api/created-html': (res) => {
    res.writeHead(201, { 'content-type': 'text/html' });
    res.end('<html><body>Created</body></html>');
  },
  '/api/zip': (res) => {
    res.writeHead(201, { 'content-type': 'application/zip' });
    res.end('PK\u0003\u0004abc');
  },
  '/api/away': (res) => {
    res.writeHead(302, { location: 'http://127.0.0.2:9/api/away' });
    res.end();
  },
  // A trailing slash's 301, keeping the query as sent.
  '/api/tslash': (res) => {
    res.writeHead(301, { location: `/api/tslash/${(res.req.url ?? '').replace(/^[^?]*/, '')}` });
    res.end();
  },
  // A redirect that puts the token of the query into the path.
  '/api/addtok': (res) => {
    res.writeHead(302, { location: `/api/echo/${new URL(res.req.url ?? '', 'http://x').searchParams.get('key')}` });
    res.end();
  },
  '/api/throttled': (res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
    res.end(JSON.stringify({ detail: 'Request was throttled.' }));
  },
  // A list whose second page is no list.
  '/api/list': (res) => {
    if (new URL(res.req.url ?? '', 'http://x').searchParams.get('offset') === '2') return json(res, { detail: 'maintenance' });
    json(res, { count: 4, next: 'http://127.0.0.1/api/list?limit=2&offset=2', previous: null, results: [{ id: 1 }, { id: 2 }] });
  },
  // The token sent, echoed as a header's name.
  '/api/name-echo': (res) => {
    res.writeHead(200, { 'content-type': 'application/json', [`x-seen-${String(res.req.headers.authorization).slice(7)}`]: '1' });
    res.end('{}');
  },
  '/api/missing': (res) => {
    res.writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'r-42' });
    res.end(JSON.stringify({ detail: 'Not found.' }));
  },
};

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = useLocalServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const bytes = Buffer.concat(chunks);
    // A body of hundreds of MB is recorded by its size.
    const body = bytes.length > 2 ** 20 ? `(${bytes.length} bytes)` : bytes.toString('utf8');
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const answer = ANSWERS[(req.url ?? '').split('?')[0]!];
    if (answer) answer(res);
    else json(res, { method: req.method, url: req.url });
  });
});
beforeEach(() => {
  seen.length = 0;
  dir = tempDir();
  return () => removeDir(dir);
});

const sct = (args: string[], input?: string) =>
  runSct(args, { input, env: { SCT_BASE_URL: server.url, SCT_TOKEN: 'sct_test_token', SCT_CONFIG_DIR: dir, NO_COLOR: '1' } });
/** The same at a terminal (a fake one, in this process). */
const sctAtTerminal = (args: string[]) => runSctIn(args, { tty: true, env: { SCT_BASE_URL: server.url, SCT_TOKEN: 'sct_test_token', SCT_CONFIG_DIR: dir, NO_COLOR: '1' } });
const query = (i = 0) => Object.fromEntries(new URL(seen[i]!.url, server.url).searchParams);

describe('what the user typed reaches the service unchanged', () => {
  it('-F numbers past 2^53 keep their digits, in a body and in a query string', async () => {
    const body = await sct(['api', '/things', '-F', 'big=12345678901234567890', '-F', 'n=7', '-F', 'price=1.50', '-F', 'long=0.12345678901234567890']);
    expect(body.exitCode, body.stderr).toBe(0);
    expect(seen[0]!.body).toBe('{"big":12345678901234567890,"n":7,"price":1.5,"long":0.12345678901234567890}');
    const get = await sct(['api', '/things', '-X', 'GET', '-F', 'id=9007199254740993', '-F', 'x=1.50']);
    expect(get.exitCode, get.stderr).toBe(0);
    expect(query(1)).toEqual({ id: '9007199254740993', x: '1.50' });
  });

  it('--dry-run shows a text --input body as its text, bytes by their count', async () => {
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const r = await sct(['api', '--dry-run', '-X', 'PUT', '--input', csv, '-H', 'Content-Type: text/csv', '/things', '-o', 'json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ method: 'PUT', path: '/things', body: 'a,b\n1,2\n' }]);
    const bin = join(dir, 'blob.bin');
    writeFileSync(bin, Buffer.from([0, 1, 2, 0xff]));
    const b = await sct(['api', '--dry-run', '-X', 'PUT', '--input', bin, '-H', 'Content-Type: application/octet-stream', '/things', '-o', 'json']);
    expect(JSON.parse(b.stdout)[0].body).toBe('(4 bytes)');
    expect(seen).toEqual([]);
  });

  it('a query string in the path is sent as typed, the fields after it; a fragment is not sent', async () => {
    const r = await sct(['api', '/things?a=1&b&q=caf%E9&r=%ZZ', '-X', 'GET', '-f', 'z=9']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen[0]!.url).toBe('/api/things?a=1&b&q=caf%E9&r=%ZZ&z=9');
    const fragment = await sct(['api', '/things?x=1#frag']);
    expect(fragment.exitCode, fragment.stderr).toBe(0);
    expect(seen[1]!.url).toBe('/api/things?x=1');
  });

  it('--input sends the file as it is: its numbers, its spelling, and any content type -H names', async () => {
    const text = '{"id": 9007199254740993, "price": 1.10, "name": "caf\\u00e9"}';
    const file = join(dir, 'body.json');
    writeFileSync(file, '\uFEFF' + text);
    const r = await sct(['api', '/things', '--input', file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.body).toBe(text);
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const c = await sct(['api', '/things', '--input', csv, '-H', 'Content-Type: text/csv']);
    expect(c.exitCode, c.stderr).toBe(0);
    expect(seen[1]!.body).toBe('a,b\n1,2\n');
    expect(seen[1]!.headers['content-type']).toBe('text/csv');
    // Sent as JSON (no other type named), a file that is none is exit 2 with nothing sent.
    const bad = await sct(['api', '/things', '--input', csv]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/rows\.csv is not valid JSON at line 1, column 1 \(/);
    const none = await sct(['api', '/things', '--input', '-'], '');
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('error: stdin is empty: --input sends it as JSON');
    expect(none.stderr).not.toContain('Unexpected end');
    expect(seen).toHaveLength(2);
    // From stdin too.
    const stdin = await sct(['api', '/things', '-X', 'PUT', '--input', '-'], '{"n": 1.0}');
    expect(stdin.exitCode, stdin.stderr).toBe(0);
    expect(seen[2]!.body).toBe('{"n": 1.0}');
  });

  it('-H Content-Type is honoured beside fields', async () => {
    const r = await sct(['api', '/things', '-f', 'a=1', '-H', 'Content-Type: application/merge-patch+json', '-X', 'PATCH']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen[0]!.headers['content-type']).toBe('application/merge-patch+json');
    expect(seen[0]!.body).toBe('{"a":"1"}');
  });

  it('a ? inside the query is part of a value, never the end of the query', async () => {
    const r = await sct(['api', '/things?q=a?b&z=1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(query()).toEqual({ q: 'a?b', z: '1' });
  });

  it('a nested key[] appends, as a top-level one does', async () => {
    const r = await sct(['api', '/things', '-f', 'x.y[]=3', '-f', 'x.y[]=4', '-f', 't[]=1', '-f', 't[]=2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(seen[0]!.body)).toEqual({ x: { y: ['3', '4'] }, t: ['1', '2'] });
  });

  it('a header value the wire cannot carry is exit 2, nothing sent', async () => {
    const r = await sct(['api', '/things', '-H', 'X-Label: 日本']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/-H X-Label: .*Latin-1/);
    expect(seen).toHaveLength(0);
  });

  it('a file too large for a string (--input, -F @file) is exit 2 naming it and the limit, nothing sent', async () => {
    const big = join(dir, 'big');
    writeFileSync(big, '');
    truncateSync(big, 600 * 2 ** 20);
    const input = await sct(['api', '/things', '--input', big]);
    expect(input.exitCode).toBe(2);
    expect(input.stderr).toContain(`cannot read ${big} for --input: it is too large to read as text (more than 536,870,888 characters, about 537 MB)`);
    const field = await sct(['api', '/things', '-F', `a=@${big}`]);
    expect(field.exitCode).toBe(2);
    expect(field.stderr).toContain(`cannot read ${big} for -F: it is too large to read as text (more than 536,870,888 characters, about 537 MB)`);
    expect(seen).toHaveLength(0);
  });

  it('a body too large to build (-F @file of NULs, six characters each as JSON) is exit 2 saying so, nothing sent, on a dry run too', async () => {
    const nul = join(dir, 'nul.bin');
    writeFileSync(nul, '');
    truncateSync(nul, 100 * 2 ** 20);
    const said = 'error: POST /sink: the request body is too large to send (as JSON, more than 536,870,888 characters, about 537 MB): nothing was sent';
    for (const extra of [[], ['--dry-run'], ['-F', 'n=12345678901234567890']]) {
      const r = await sct(['api', '-X', 'POST', '/sink', '-F', `a=@${nul}`, ...extra]);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(said);
      expect(r.stderr).not.toContain('may have been');
    }
    expect(seen).toHaveLength(0);
  }, 120_000);

  it('an --input body of as many bytes as a string holds is sent whole', async () => {
    // A JSON string, quotes included, of exactly the longest string's length.
    const body = Buffer.alloc(bufferConstants.MAX_STRING_LENGTH, 'a');
    body[0] = body[body.length - 1] = 0x22;
    const big = join(dir, 'big.json');
    writeFileSync(big, body);
    const r = await sct(['api', '-X', 'POST', '/sink', '--input', big]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen.map((x) => x.body)).toEqual([`(${bufferConstants.MAX_STRING_LENGTH} bytes)`]);
  }, 120_000);

  it('-F key=@ with no file name (an empty $FILE) is exit 2 saying the name is missing, nothing sent', async () => {
    const r = await sct(['api', '/things', '-F', 'a=@']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error: invalid -F "a=@": the file name after @ is missing (@- reads stdin)');
    expect(seen).toHaveLength(0);
  });

  it('stdin claimed by two options is exit 2 saying so, nothing sent', async () => {
    const r = await sct(['api', '/things', '--input', '-', '-F', 'a=@-'], '{"z":1}');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/stdin .*once/);
    expect(seen).toHaveLength(0);
  });

  it('a token typed into the path is sent again where a redirect on the same origin leads, masked only in what is shown', async () => {
    const r = await sct(['api', '-v', '/tslash?key=sct_test_token&x=1']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen.map((x) => x.url)).toEqual(['/api/tslash?key=sct_test_token&x=1', '/api/tslash/?key=sct_test_token&x=1']);
    expect(JSON.parse(r.stdout)).toEqual({ method: 'GET', url: '/api/tslash/?key=sct_…****&x=1' });
    expect(r.stderr).toContain('< location: /api/tslash/?key=sct_…****&x=1');
    expect(r.stderr).not.toContain('sct_test_token');
  });

  it('a same-origin redirect that puts the typed token somewhere new is followed masked', async () => {
    const r = await sct(['api', '/addtok?key=sct_test_token']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen.map((x) => x.url)).toEqual(['/api/addtok?key=sct_test_token', '/api/echo/sct_%E2%80%A6****']);
  });
});

describe('every answer shown as gh api shows it', () => {
  it('--json/--columns pick fields of each row of a list answer, a page or an array', async () => {
    const page = await sct(['api', '/page', '--json', 'id,name']);
    expect(page.exitCode, page.stderr).toBe(0);
    expect(JSON.parse(page.stdout)).toEqual([{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
    const array = await sct(['api', '/array', '--columns', 'id']);
    expect(array.exitCode, array.stderr).toBe(0);
    expect(JSON.parse(array.stdout)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('a JSON string or null answer is printed as JSON', async () => {
    const s = await sct(['api', '/string']);
    expect(s.exitCode, s.stderr).toBe(0);
    expect(s.stdout).toBe('"abc"\n');
    const n = await sct(['api', '/null']);
    expect(n.exitCode, n.stderr).toBe(0);
    expect(n.stdout).toBe('null\n');
  });

  // A 204, and a 200 with no body at all (chunked and empty): nothing, not a null the service never sent.
  it.each(['/nothing', '/empty'])('GET %s answered with no body is exit 0 with nothing printed', async (path) => {
    const r = await sct(['api', path]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('an answer in the charset its Content-Type names is read in it; bytes that are not UTF-8 and name nothing else are an error, never U+FFFD; a byte-order mark is no part of the JSON', async () => {
    const latin1 = await sct(['api', '/latin1']);
    expect(latin1.exitCode, latin1.stderr).toBe(0);
    expect(JSON.parse(latin1.stdout)).toEqual({ name: 'Café' });
    const windows = await sct(['api', '/windows-1252']);
    expect(windows.exitCode, windows.stderr).toBe(0);
    expect(JSON.parse(windows.stdout)).toEqual({ name: 'Café d’€' });
    const bad = await sct(['api', '/not-utf8']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain('GET /not-utf8: the answer is not valid UTF-8 text, and names no other charset');
    expect(bad.stdout).toBe('');
    // A token echoed in UTF-16 is masked as one in UTF-8; a quoted charset is a charset; an
    // error's text is read in its charset too.
    const utf16 = await sct(['api', '/utf16']);
    expect(utf16.exitCode, utf16.stderr).toBe(0);
    expect(JSON.parse(utf16.stdout)).toEqual({ echo: 'tok sct_…****' });
    expect((await sct(['api', '/single-quoted'])).stdout).toContain('Café');
    const error = await sct(['api', '/error-latin1']);
    expect(error.exitCode).toBe(1);
    expect(error.stderr).toContain('name: Côte invalide');
    const bom = await sct(['api', '/bom']);
    expect(bom.exitCode, bom.stderr).toBe(0);
    expect(JSON.parse(bom.stdout)).toEqual({ name: 'Café' });
  });

  it('an encoding sct cannot decode is named as asked for when -H Accept-Encoding asked for it', async () => {
    const asked = await sct(['api', '-H', 'Accept-Encoding: zstd', '/zstd']);
    expect(asked.exitCode).toBe(1);
    expect(asked.stderr).toContain('GET /zstd: the answer is encoded as "zstd", as -H Accept-Encoding asked, which sct cannot decode (it decodes gzip, deflate and br)');
    const unasked = await sct(['api', '/zstd']);
    expect(unasked.exitCode).toBe(1);
    expect(unasked.stderr).toContain('which sct did not ask for and cannot decode');
  });

  it('-X HEAD asks for the status and headers alone: -i shows them, nothing else is printed', async () => {
    const r = await sct(['api', '-X', 'head', '-i', '/page']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(seen.at(-1)!.method).toBe('HEAD');
    expect(r.stdout.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^[A-Z][\w-]*: /);
    const quiet = await sct(['api', '-X', 'HEAD', '/page']);
    expect(quiet.exitCode, quiet.stderr).toBe(0);
    expect(quiet.stdout).toBe('');
    // Content-Encoding: gzip and a length, and no body: nothing to decode.
    const gzipped = await sct(['api', '-X', 'HEAD', '-i', '/gzipped']);
    expect(gzipped.exitCode, gzipped.stderr).toBe(0);
    expect(gzipped.stdout).toMatch(/^Content-Encoding: gzip$/m);
    expect((await sct(['api', '/gzipped'])).stdout).toBe('{\n  "a": 1\n}\n');
  });

  it('--paginate on an answer that is no list (a 204, text) prints it as without --paginate', async () => {
    const nothing = await sct(['api', '/nothing', '--paginate']);
    expect(nothing.exitCode, nothing.stderr).toBe(0);
    expect(nothing.stdout).toBe('');
    const text = await sct(['api', '/text', '--paginate']);
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toBe('hello');
  });

  it('--paginate whose later page is no list names the page and what was written before it', async () => {
    const r = await sct(['api', '/list?limit=2', '--paginate']);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(r.stderr).toContain('error: unexpected response from GET /list: the page at offset 2 is not a paginated list (stopped after 2 items in 2 requests)');
  });

  it('--jq on an answer that is not JSON is exit 1 saying so', async () => {
    const r = await sct(['api', '/text', '--jq', '.a']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/--jq filters JSON, but GET \/text answered text\/plain \(5 bytes\), not JSON/);
    expect(r.stdout).toBe('');
    // A write's answer is not lost to the filter: written as it came, the run saying it went through.
    const post = await sct(['api', '-X', 'POST', '/text', '--jq', '.a']);
    expect(post.exitCode).toBe(1);
    expect(post.stderr).toContain('POST /text went through (200), but --jq filters JSON and the answer is text/plain (5 bytes): it is written to stdout as it came');
    expect(post.stdout).toBe('hello');
  });

  it('a write answered 2xx with what is not JSON (broken, an HTML page) writes it as it came, exit 1 saying it went through', async () => {
    const broken = await sct(['api', '-X', 'POST', '/created-broken']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toBe('{"id": 1,');
    expect(broken.stderr).toContain('error: POST /created-broken went through (201), but its answer is not JSON (application/json, 9 bytes): it is written to stdout as it came');
    expect(broken.stderr).not.toContain('may have been');
    const html = await sct(['api', '-X', 'PUT', '-i', '/created-html', '--jq', '.id']);
    expect(html.exitCode).toBe(1);
    expect(html.stdout).toMatch(/^HTTP\/1\.1 201 Created\n(.+\n)*\n<html><body>Created<\/body><\/html>$/);
    expect(html.stderr).toContain('error: PUT /created-html went through (201), but its answer is not JSON (an HTML page, 33 bytes): it is written to stdout as it came');
    expect(html.stderr).not.toContain('may have been');
    // Nor text in its charset: its bytes as they came.
    const latin1 = await sct(['api', '-X', 'POST', '/created-latin1']);
    expect(latin1.exitCode).toBe(1);
    expect(latin1.stdout).toMatch(/^\{"id":1,"n":".\"\}$/);
    expect(latin1.stderr).toContain('POST /created-latin1 went through (201), but its answer is not JSON (not valid UTF-8 text');
    expect(latin1.stderr).not.toContain('may have been');
    // At a terminal too, as the text it is.
    const shown = await sctAtTerminal(['api', '-X', 'POST', '/created-broken']);
    expect(shown.exitCode).toBe(1);
    expect(shown.stdout).toBe('{"id": 1,');
    expect(seen).toHaveLength(4);
    // A read's can be asked for again: still the error that names what may be in the way.
    const read = await sct(['api', '/created-broken']);
    expect(read.exitCode).toBe(1);
    expect(read.stdout).toBe('');
    expect(read.stderr).toContain('the answer is not JSON (201 Created, application/json): a proxy, captive portal or wrong base URL may be in the way');
  });

  it('at a terminal, bytes not shown of a write\'s answer are said so, with no advice to send the write again', async () => {
    const jq = await sctAtTerminal(['api', '-X', 'POST', '/zip', '--jq', '.id']);
    expect(jq.exitCode).toBe(1);
    expect(jq.stdout).toBe('');
    expect(jq.stderr).toContain('error: POST /zip went through (201), but --jq filters JSON and the answer is application/zip (7 bytes), not shown at a terminal');
    expect(jq.stderr).toContain('hint: sending the POST again to see its answer would do it a second time (-i or > file would show only that second answer)');
    expect(jq.stderr).not.toContain('written to stdout');
    expect(jq.stderr).not.toContain('send them to a file');
    const plain = await sctAtTerminal(['api', '-X', 'POST', '/zip']);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stderr).toContain('7 bytes of application/zip, not shown at a terminal: the POST was done, and sending it again to see them would do it a second time (-i or > file would show only that second answer)');
    expect(plain.stderr).not.toContain('send them to a file');
    expect(seen).toHaveLength(2);
    // A read's can be asked for again, into a file.
    const read = await sctAtTerminal(['api', '/zip']);
    expect(read.exitCode, read.stderr).toBe(0);
    expect(read.stderr).toContain('7 bytes of application/zip, not shown at a terminal: send them to a file (sct api … > file)');
  });

  it('-i and -v mask the token in a response header\'s name too, in whatever case it comes', async () => {
    const token = 'sct_MiXeD_Case_Token';
    const r = await runSct(['api', '-i', '-v', '/name-echo'], { env: { SCT_BASE_URL: server.url, SCT_TOKEN: token, SCT_CONFIG_DIR: dir, NO_COLOR: '1' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^X-Seen-Sct_…\*\*\*\*: 1$/m);
    expect((r.stdout + r.stderr).toLowerCase()).not.toContain(token.toLowerCase());
  });

  it('-i on an error answer prints its status line, headers and body, and the run is still exit 1', async () => {
    const r = await sct(['api', '-i', '/missing']);
    expect(r.exitCode).toBe(1);
    const [head, body] = r.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(head).toMatch(/^X-Request-Id: r-42$/m);
    expect(JSON.parse(body!)).toEqual({ detail: 'Not found.' });
    expect(r.stderr).toMatch(/Not found\. \(404 Not Found on GET \/missing\)/);
  });

  it('-i prints the answer of every failure that had one: a 401, an HTML page, broken JSON, a 429, a redirect not followed; the exit code is the failure\'s', async () => {
    const unauthorized = await sct(['api', '-i', '/unauthorized']);
    expect(unauthorized.exitCode).toBe(4);
    const [head, body] = unauthorized.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(head).toMatch(/^Www-Authenticate: Bearer realm="api"$/m);
    expect(JSON.parse(body!)).toEqual({ detail: 'Invalid token.' });
    const html = await sct(['api', '-i', '/html']);
    expect(html.exitCode).toBe(1);
    expect(html.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(.+\n)*Content-Type: text\/html\n(.+\n)*\n<html><body>Sign in<\/body><\/html>\n$/);
    expect(html.stderr).toContain('the answer is not JSON (200 OK, an HTML page)');
    const broken = await sct(['api', '-i', '/broken']);
    expect(broken.exitCode).toBe(1);
    expect(broken.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(.+\n)*X-Request-Id: r-7\n(.+\n)*\n\{"id": 1,\n$/);
    // A 429 whose wait is longer than --max-wait: its body too.
    const throttled = await sct(['api', '-i', '/throttled', '--max-wait', '1s']);
    expect(throttled.stdout).toMatch(/^HTTP\/1\.1 429 Too Many Requests\n(.+\n)*Retry-After: 3600\n(.+\n)*\n\{"detail":"Request was throttled\."\}\n$/);
    expect(throttled.stderr).toContain('longer than --max-wait');
    const away = await sct(['api', '-i', '/away']);
    expect(away.exitCode).toBe(1);
    expect(away.stdout).toMatch(/^HTTP\/1\.1 302 Found\n(.+\n)*Location: http:\/\/127\.0\.0\.2:9\/api\/away\n(.+\n)*\n$/);
    expect(away.stderr).toContain('sct does not follow a redirect away from the base URL');
  });
});
