import { readFileSync, readlinkSync } from 'node:fs';

/**
 * CPU time of single threads, on Linux (/proc). A worker thread names its
 * own id (`currentThreadId`), and the thread that supervises it reads that
 * thread's CPU time while it runs, even when it is stuck in synchronous code.
 * Elsewhere both are null and supervisors fall back to the wall clock.
 */

/** This thread's kernel id, or null where /proc does not say. */
export function currentThreadId(): number | null {
  try {
    const id = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(id) ? id : null;
  } catch {
    return null;
  }
}

const TICK_MS = 10; // USER_HZ is 100 on every Linux the service runs on

/** User plus system CPU time of a thread of this process in milliseconds, or null once it is gone (or without /proc). */
export function threadCpuMs(threadId: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${threadId}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    return Number.isFinite(ticks) ? ticks * TICK_MS : null;
  } catch {
    return null;
  }
}
