// The network benchmark's link between a client and a server (bench/network.mjs), the best this
// machine can build:
//   netem  two network namespaces joined by a veth pair, `tc netem delay 20ms rate 50mbit` on
//          each end (needs root, iproute2 and the kernel's sch_netem);
//   tun    two network namespaces, each with a TUN device whose other end is a delay line in
//          userspace (bench/tunlink.py: 20 ms and 50 Mbit/s each way, a bounded queue), for a
//          kernel without sch_netem (needs root, iproute2, /dev/net/tun and python3);
//   proxy  a throttling TCP proxy on 127.0.0.1 (bench/throttle.mjs), anywhere else.
// In the namespaces the client is 10.201.0.2 and the server 10.201.0.1: real TCP over a link that
// is not loopback (slow start, the link's queue, Nagle and delayed acks all play), which is why
// sct there needs SCT_ALLOW_HTTP=1. Everything built is torn down by `close()`, and also when this
// process exits, is interrupted (Ctrl-C) or terminated; namespaces left by a run that was killed
// outright (kill -9) are deleted by the next run.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

const CLIENT = '10.201.0.2';
const SERVER = '10.201.0.1';
const PREFIX = 'sctbench';
const forwarder = new URL('./tunlink.py', import.meta.url).pathname;
const checker = new URL('./link-check.mjs', import.meta.url).pathname;

const ok = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const ip = (...args) => {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')}: ${r.stderr.trim()}`);
};

/** Whether tc netem works here: root, iproute2 and the kernel's sch_netem. */
function netemWorks() {
  const ns = `${PREFIX}-t-${process.pid}`;
  if (!ok('ip', ['netns', 'add', ns])) return false;
  try {
    return ok('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '20ms']);
  } finally {
    ok('ip', ['netns', 'del', ns]);
  }
}

/** Which link this machine can build, and why not a better one. */
export function chooseLink() {
  const root = process.getuid?.() === 0;
  const iproute = ok('ip', ['-V']);
  if (!root || !iproute) return { kind: 'proxy', why: root ? 'no iproute2' : 'not root' };
  removeStale();
  if (netemWorks()) return { kind: 'netem', why: '' };
  if (!existsSync('/dev/net/tun')) return { kind: 'proxy', why: 'no sch_netem, no /dev/net/tun' };
  if (!ok('python3', ['-c', ''])) return { kind: 'proxy', why: 'no sch_netem, no python3' };
  return { kind: 'tun', why: 'no sch_netem in this kernel' };
}

/** Namespaces of runs that no longer exist (a benchmark killed with -9). */
function removeStale() {
  const names = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '';
  for (const [, name, pid] of names.matchAll(new RegExp(`^(${PREFIX}-[a-z]-(\\d+))`, 'gm'))) {
    if (Number(pid) === process.pid || alive(Number(pid))) continue;
    killIn(name);
    ok('ip', ['netns', 'del', name]);
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every process still running in a namespace (the sandbox, a client cut short). */
function killIn(ns) {
  const pids = spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '';
  for (const pid of pids.split(/\s+/).filter(Boolean)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/**
 * Builds the link (`kind` netem or tun) between two new namespaces. `client` and `server` are
 * the command prefixes that run a program in each; `host` is the server's address.
 */
export async function startNamespaceLink(kind, { delayMs = 20, mbit = 50 } = {}) {
  const c = `${PREFIX}-c-${process.pid}`;
  const s = `${PREFIX}-s-${process.pid}`;
  const devC = `sctc${process.pid}`.slice(0, 15);
  const devS = `scts${process.pid}`.slice(0, 15);
  let child;
  let closed = false;
  // Synchronous, so that it also runs from an 'exit' handler.
  const teardown = () => {
    if (closed) return;
    closed = true;
    process.off('exit', teardown);
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    for (const ns of [c, s]) killIn(ns);
    child?.kill('SIGTERM');
    for (const ns of [c, s]) ok('ip', ['netns', 'del', ns]);
  };
  const interrupted = (signal) => {
    teardown();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', teardown);
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  try {
    ip('netns', 'add', c);
    ip('netns', 'add', s);
    let forwarded = Promise.resolve('');
    if (kind === 'tun') {
      // stdin is a pipe from this process: when it dies, the forwarder sees it close and stops.
      child = spawn('python3', [forwarder, '--delay-ms', String(delayMs), '--mbit', String(mbit), devC, devS], { stdio: ['pipe', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
      forwarded = new Promise((resolve) => child.on('close', () => resolve(err.trim())));
      await new Promise((resolve, reject) => {
        child.stdout.once('data', resolve);
        child.once('close', () => reject(new Error(`bench/tunlink.py stopped: ${err.trim()}`)));
      });
    } else {
      ip('link', 'add', devC, 'type', 'veth', 'peer', 'name', devS);
    }
    ip('link', 'set', 'dev', devC, 'netns', c);
    ip('link', 'set', 'dev', devS, 'netns', s);
    for (const [ns, dev, mine, peer] of [[c, devC, CLIENT, SERVER], [s, devS, SERVER, CLIENT]]) {
      ip('-n', ns, 'addr', 'add', mine, 'peer', peer, 'dev', dev);
      ip('-n', ns, 'link', 'set', dev, 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      if (kind === 'netem') ip('netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', dev, 'root', 'netem', 'delay', `${delayMs}ms`, 'rate', `${mbit}mbit`, 'limit', '1000');
    }
    return {
      kind,
      host: SERVER,
      client: ['ip', 'netns', 'exec', c],
      server: ['ip', 'netns', 'exec', s],
      /** Tears the link down; resolves with the forwarder's counts (tun), for the output. */
      close: async () => {
        teardown();
        return forwarded;
      },
    };
  } catch (e) {
    teardown();
    throw e;
  }
}

/**
 * What the link does, measured across it: the round trip by ping (where installed) and by a TCP
 * connect, and the rate of an 8 MB transfer from the server's side to the client's.
 */
export async function checkLink(link) {
  const run = async (argv) => (await promisify(execFile)(argv[0], argv.slice(1), { encoding: 'utf8' })).stdout;
  const server = spawn(link.server[0], [...link.server.slice(1), process.execPath, checker, 'serve', link.host], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise((resolve, reject) => {
      server.stdout.once('data', resolve);
      server.once('close', () => reject(new Error('bench/link-check.mjs serve stopped')));
    });
    const measured = JSON.parse(await run([...link.client, process.execPath, checker, 'measure', link.host]));
    let pingMs;
    if (ok('ping', ['-V'])) {
      const out = await run([...link.client, 'ping', '-c', '5', '-i', '0.2', '-q', link.host]);
      pingMs = Number(/= [\d.]+\/([\d.]+)\//.exec(out)?.[1]);
    }
    return { ...measured, pingMs };
  } finally {
    server.kill();
  }
}
