// What every export floor shares: GET one page with node:http and hand back its bytes whole.
// It asks for gzip as sct does (every request of sct asks for a compressed answer), so the
// floor and sct get the same bytes from the sandbox, which compresses when asked.
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';

export function getPage(url, token) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'gzip' } }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET ${url}: ${res.statusCode}`));
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve(res.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
