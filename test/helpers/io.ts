// Fake streams for in-process tests: everything written is collected as strings.
import { Writable, Readable, PassThrough } from 'node:stream';
import { createIO, type IOOptions } from '../../src/output/iostreams.js';

export function createTestIO(opts: Omit<IOOptions, 'stdout' | 'stderr'> & { input?: string | Buffer } = {}) {
  let out = '';
  let err = '';
  const stdout = new Writable({
    write(chunk, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  const stderr = new Writable({
    write(chunk, _enc, cb) {
      err += chunk.toString();
      cb();
    },
  });
  // A terminal has a width: spinners draw only where one is known.
  if (opts.stderrIsTTY) Object.assign(stderr, { columns: opts.columns ?? 80 });
  const stdin = opts.input !== undefined ? Readable.from([opts.input]) : new PassThrough();
  const { input: _input, ...rest } = opts;
  const streams = { stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false, ...rest, stdin, stdout, stderr };
  const io = createIO(streams, {});
  /** `streams` is what main() takes to build its own IO from the same fakes. */
  return { io, streams, stdout: () => out, stderr: () => err };
}
