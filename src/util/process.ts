// Whether a process named in a file sct left (a lock, a download's part file) still runs.

/** The process runs (EPERM: it does, as another user's); false once it has gone. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
