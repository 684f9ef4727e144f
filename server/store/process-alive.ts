// Whether a process still runs, for files named by the pid that made them (temp files, spools): a file of a
// process that is gone was cut off and is removed; one of a live process, even another user's, is left.
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
