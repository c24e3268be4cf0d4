// The network benchmark's check of its link (bench/link.mjs), run on each side of it:
//   node link-check.mjs serve HOST   → port 7001 sends BYTES and closes, 7002 closes at once;
//                                      prints "ready"
//   node link-check.mjs measure HOST → one JSON line: the TCP connect round trip (median of 5,
//                                      in ms: a SYN there and its SYN-ACK back) and the payload
//                                      rate of one BYTES transfer in Mbit/s (slow start included)
import { connect, createServer } from 'node:net';

const BYTES = 8_000_000;
const [mode, host] = process.argv.slice(2);

if (mode === 'serve') {
  const bulk = Buffer.alloc(BYTES);
  let ready = 0;
  const up = () => ++ready === 2 && console.log('ready');
  createServer((s) => s.end(bulk)).listen(7001, host, up);
  createServer((s) => s.end()).listen(7002, host, up);
} else {
  const once = (port, onData) =>
    new Promise((resolve, reject) => {
      const start = performance.now();
      let connected;
      const s = connect(port, host, () => (connected = performance.now()));
      s.on('data', (d) => onData?.(d));
      s.on('error', reject);
      s.on('end', () => resolve({ connect: connected - start, total: performance.now() - connected }));
    });
  const rtts = [];
  for (let i = 0; i < 5; i++) rtts.push((await once(7002)).connect);
  let n = 0;
  const { total } = await once(7001, (d) => (n += d.length));
  console.log(JSON.stringify({ rttMs: rtts.sort((a, b) => a - b)[2], bytes: n, mbit: (n * 8) / (total / 1000) / 1e6 }));
}
