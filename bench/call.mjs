// What the benchmarks ask the sandbox directly (its data, its request log): one request on a
// fresh connection, the answer parsed as JSON (null when empty).
import { request } from 'node:http';

export function call(method, url, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve(text ? JSON.parse(text) : null);
      });
    });
    req.on('error', reject);
    req.end();
  });
}
