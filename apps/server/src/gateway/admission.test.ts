import { describe, expect, it } from "vitest";
import { AdmissionQueues } from "./admission";
import type { GatewayError } from "./errors";

const never = new AbortController().signal;

describe("AdmissionQueues", () => {
  it("admits up to the capacity at once, queues the rest in order and lets them in as slots free", async () => {
    const queues = new AdmissionQueues({ queueSize: 2, maxWaitMs: 5_000 }, () => 1);
    const first = await queues.enter("m", never);
    const order: string[] = [];
    const second = queues.enter("m", never).then((release) => (order.push("second"), release));
    const third = queues.enter("m", never).then((release) => (order.push("third"), release));
    expect(queues.depth("m")).toBe(2);
    first();
    (await second)();
    (await third)();
    expect(order).toEqual(["second", "third"]);
    expect(queues.depth("m")).toBe(0);
  });

  it("refuses with a 429 naming the model when the queue is full", async () => {
    const queues = new AdmissionQueues({ queueSize: 1, maxWaitMs: 5_000 }, () => 1);
    const release = await queues.enter("qwen", never);
    const waiting = queues.enter("qwen", never);
    const error = (await queues.enter("qwen", never).catch((e: unknown) => e)) as GatewayError;
    expect(error.status).toBe(429);
    expect(error.code).toBe("model_queue_full");
    expect(error.message).toMatch(/model "qwen" is busy/);
    expect(Number(error.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    release();
    (await waiting)();
    expect(queues.refusals()).toEqual([{ model: "qwen", reason: "model_queue_full", count: 1 }]);
  });

  it("refuses a request that waited past the limit, and forgets it", async () => {
    const queues = new AdmissionQueues({ queueSize: 5, maxWaitMs: 30 }, () => 1);
    const release = await queues.enter("m", never);
    const error = (await queues.enter("m", never).catch((e: unknown) => e)) as GatewayError;
    expect(error.status).toBe(429);
    expect(error.code).toBe("model_queue_timeout");
    expect(queues.depth("m")).toBe(0);
    release();
    expect(queues.depths()).toEqual([]);
    // The count outlives the queue: a model whose queue emptied still says it refused.
    expect(queues.refusals()).toEqual([{ model: "m", reason: "model_queue_timeout", count: 1 }]);
  });

  it("takes a request that leaves out of the queue", async () => {
    const queues = new AdmissionQueues({ queueSize: 5, maxWaitMs: 5_000 }, () => 1);
    const release = await queues.enter("m", never);
    const client = new AbortController();
    const waiting = queues.enter("m", client.signal).catch((e: unknown) => e);
    expect(queues.depth("m")).toBe(1);
    client.abort();
    expect(((await waiting) as GatewayError).code).toBe("client_closed");
    expect(queues.depth("m")).toBe(0);
    release();
  });

  it("does not queue a model without endpoints, and lets waiters in when capacity grows", async () => {
    let capacity = 0;
    const queues = new AdmissionQueues({ queueSize: 0, maxWaitMs: 5_000 }, () => capacity);
    (await queues.enter("m", never))();
    capacity = 1;
    const held = await queues.enter("m", never);
    const big = new AdmissionQueues({ queueSize: 3, maxWaitMs: 5_000 }, () => capacity);
    const a = await big.enter("m", never);
    const b = big.enter("m", never);
    capacity = 2;
    big.wake();
    (await b)();
    a();
    held();
  });
});
