// Gathers writes that arrive together (in one turn of the event loop, or while the previous
// batch is being written) into one batch, so a burst of agents registering or dropping at once
// costs a few statements instead of thousands. Each caller's promise settles when its batch has.
export interface WriteBatchOptions<T> {
  /** Most items in one write. */
  maxItems: number;
  /** Writes a batch; must not throw (it logs its own failures). */
  write(items: T[]): Promise<void>;
}

export function createWriteBatch<T>(options: WriteBatchOptions<T>): (item: T) => Promise<void> {
  const queue: Array<{ item: T; done: () => void }> = [];
  let isRunning = false;
  const run = async () => {
    while (queue.length > 0) {
      const batch = queue.splice(0, options.maxItems);
      await options.write(batch.map((entry) => entry.item)).catch(() => undefined);
      for (const entry of batch) entry.done();
    }
    isRunning = false;
  };
  return (item) =>
    new Promise<void>((resolve) => {
      queue.push({ item, done: resolve });
      if (isRunning) return;
      isRunning = true;
      setImmediate(() => void run());
    });
}
