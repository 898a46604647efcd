/**
 * A bound on how many pieces of work of one kind run at once in this process: `run(work)`
 * starts `work` when one of `size` slots is free, else waits its turn (first come, first
 * served); nothing is refused. For sharp's pipelines, whose memory grows with how many run.
 */
export function slots(size: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < size) running += 1;
    // A finishing piece hands its slot straight to the first waiter (see below), so a newcomer
    // can never slip in between and make it one too many.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}
