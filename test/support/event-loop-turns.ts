/**
 * Counts the turns the event loop takes while `work` runs: 0 when the work
 * holds the thread from start to end (its awaits resolve without a turn), one
 * or more for each time it lets other work in.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = () => {
    if (done) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { result: await work(), turns };
  } finally {
    done = true;
  }
}
