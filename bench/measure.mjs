// One measured run of `node args…` under GNU time (/usr/bin/time), shared by the benchmarks.
import { spawn } from 'node:child_process';

/**
 * Runs `node args…` (after `prefix…`, if given) without blocking this process (a server in it keeps serving) and resolves
 * with its exit status, wall time and CPU time (user + system) in ms, peak RSS in MB, and its
 * stdout and stderr (GNU time's own lines taken out).
 */
export function timed(args, env, prefix = []) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    // prefix: a command that runs the measured one elsewhere (`ip netns exec NAME`); its few ms count
    // in the wall time alike for every case, not in the CPU time.
    const argv = [...prefix, '/usr/bin/time', '-f', 'TIME %U %S %M', process.execPath, ...args];
    const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('close', (status) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      const time = /TIME ([\d.]+) ([\d.]+) (\d+)\s*$/.exec(stderr);
      const own = stderr.replace(/TIME [\d.]+ [\d.]+ \d+\s*$/, '').replace(/^Command exited with non-zero status \d+\n/m, '');
      resolve({
        status,
        wall,
        cpu: time ? (Number(time[1]) + Number(time[2])) * 1000 : NaN,
        rssMb: time ? Number(time[3]) / 1024 : NaN,
        stdout,
        stderr: own.trimEnd(),
      });
    });
  });
}
