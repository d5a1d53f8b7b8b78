/** At most `max` tasks at once; the rest wait their turn (the watcher's cap on cloud calls). */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now, and the most ever seen at once (for benchmarks). */
  active(): number;
  peak(): number;
}

export function createLimiter(max: number): Limiter {
  let running = 0;
  let peak = 0;
  const queue: (() => void)[] = [];
  const release = () => {
    running--;
    queue.shift()?.();
  };
  return {
    async run(task) {
      if (running >= max) await new Promise<void>((resolve) => queue.push(resolve));
      running++;
      peak = Math.max(peak, running);
      try {
        return await task();
      } finally {
        release();
      }
    },
    active: () => running,
    peak: () => peak,
  };
}
