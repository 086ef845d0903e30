// Runs `work` over every item, at most `atOnce` at a time, each worker taking the next item as it
// finishes one: how the benches join, connect and use thousands of simulated nodes and keys
// without opening them all at once.
export async function eachAtOnce<T>(
  items: readonly T[],
  atOnce: number,
  work: (item: T, at: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < items.length; at = next++) await work(items[at] as T, at);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
}
