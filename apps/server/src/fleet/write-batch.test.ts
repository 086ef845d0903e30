import { describe, expect, it } from "vitest";
import { createWriteBatch } from "./write-batch";

describe("createWriteBatch", () => {
  it("writes what arrives together as one batch, and what arrives meanwhile as the next", async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const add = createWriteBatch<number>({
      maxItems: 100,
      write: async (items) => {
        batches.push(items);
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = [1, 2, 3].map(add);
    await new Promise((resolve) => setImmediate(resolve));
    // The first batch is being written: these wait for the next one.
    const second = [4, 5].map(add);
    expect(batches).toEqual([[1, 2, 3]]);
    release();
    await Promise.all([...first, ...second]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it("splits a burst larger than maxItems, and settles each caller once its batch is written", async () => {
    const batches: number[][] = [];
    const add = createWriteBatch<number>({
      maxItems: 2,
      write: async (items) => {
        batches.push(items);
      },
    });
    await Promise.all([1, 2, 3, 4, 5].map(add));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("settles callers even when a write throws", async () => {
    const add = createWriteBatch<number>({
      maxItems: 10,
      write: () => Promise.reject(new Error("disk full")),
    });
    await expect(Promise.all([add(1), add(2)])).resolves.toEqual([undefined, undefined]);
  });
});
