// Starts `sct sandbox` as a child process (the demo and the benchmark keep it out of the
// process they measure or drive) and resolves once it has printed its base URL.
import { spawn } from 'node:child_process';

const bin = new URL('../bin/sct.js', import.meta.url).pathname;

export async function startSandboxProcess(args = [], env = process.env, prefix = []) {
  // prefix: a command that starts it elsewhere (`ip netns exec NAME`, which execs node in its place).
  const argv = [...prefix, process.execPath, bin, 'sandbox', '--port', '0', '--quiet', ...args];
  const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.setEncoding('utf8');
    // The stream keeps flowing after the first line: closing it would cost the sandbox its stdout.
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      if (buf.includes('\n')) resolve(buf.split('\n')[0].trim());
    });
    child.stdout.on('end', () => reject(new Error('the sandbox exited before printing its URL')));
  });
  return { url, origin: new URL(url).origin, child };
}
