// A link far away, in userspace (`startThrottle(upstreamPort)`): a TCP proxy on 127.0.0.1 that
// delays every byte by `delayMs` in each direction (20 ms: a 40 ms round trip) and lets through at
// most `mbit` Mbit/s each way (50), per connection, as a delay line does: a chunk leaves when the
// link has finished sending the ones before it, plus the delay. The network benchmark uses it where
// the kernel has no sch_netem (tc netem) to build the same link between network namespaces.
// Not modelled: TCP's slow start over the link and packet loss (the proxy's own sockets are local).
import { createServer, connect } from 'node:net';

export async function startThrottle(upstreamPort, { delayMs = 20, mbit = 50, host = '127.0.0.1' } = {}) {
  const bytesPerMs = (mbit * 1e6) / 8 / 1000;
  const sockets = new Set();
  /** One direction of the link: src's bytes reach dst after the queue ahead of them, their own time on the wire and the delay. */
  const line = (src, dst) => {
    // In order: each chunk with the time it may leave; one timer for the head of the queue (timers
    // of nearby times may fire out of order, which would reorder the bytes).
    const queue = [];
    let busyUntil = 0;
    let queued = 0;
    let timer;
    let ended = false;
    const release = () => {
      timer = undefined;
      const now = performance.now();
      while (queue.length && queue[0].at <= now + 0.5) {
        const { chunk } = queue.shift();
        queued -= chunk.length;
        if (!dst.destroyed) dst.write(chunk);
      }
      if (queued <= 1 << 19) src.resume();
      if (queue.length) timer = setTimeout(release, queue[0].at - now);
      else if (ended) dst.end();
    };
    src.on('data', (chunk) => {
      const now = performance.now();
      busyUntil = Math.max(now, busyUntil) + chunk.length / bytesPerMs;
      queue.push({ chunk, at: busyUntil + delayMs });
      queued += chunk.length;
      // A sender cannot put more on a link than it holds: past a megabyte in flight it waits.
      if (queued > 1 << 20) src.pause();
      timer ??= setTimeout(release, queue[0].at - now);
    });
    src.on('end', () => {
      ended = true;
      if (!queue.length && !timer) dst.end();
    });
    src.on('error', () => dst.destroy());
    src.on('close', () => {
      if (!ended) dst.destroy();
    });
  };
  const server = createServer((client) => {
    const up = connect(upstreamPort, host);
    for (const s of [client, up]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.setNoDelay(true);
    }
    // The connection itself crosses the link: the first bytes wait a round trip's delay.
    line(client, up);
    line(up, client);
  });
  await new Promise((r) => server.listen(0, host, r));
  return {
    port: server.address().port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}
