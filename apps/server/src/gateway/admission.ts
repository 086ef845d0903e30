// A bounded admission queue per model. A model takes as many requests at once as its endpoints
// allow (each endpoint up to its in-flight limit); past that, requests wait in order, up to the
// queue's size and for at most the queue's wait. A full queue or a wait past the limit is a 429
// with Retry-After naming the model, never a 5xx. A model with no endpoint is not queued here: the
// gateway answers at once why it cannot serve.
import { clientLeft, GatewayError } from "./errors";

export interface AdmissionPolicy {
  /** Requests that may wait per model. */
  queueSize: number;
  /** Longest wait before a 429. */
  maxWaitMs: number;
}

interface Waiter {
  admit(): void;
  refuse(error: GatewayError): void;
}

interface ModelQueue {
  inFlight: number;
  waiting: Waiter[];
}

export class AdmissionQueues {
  private readonly models = new Map<string, ModelQueue>();
  /** Requests refused with 429 since start, by model and code, for /metrics. */
  private readonly refused = new Map<string, Map<string, number>>();

  constructor(
    private readonly policy: AdmissionPolicy,
    /** Requests the model can take at once now; 0 when it has no endpoint. */
    private readonly capacity: (model: string) => number,
  ) {}

  /** Waits for a turn; resolves to the release to call when the request ends, or throws a 429. */
  async enter(model: string, signal: AbortSignal): Promise<() => void> {
    const queue = this.of(model);
    const capacity = this.capacity(model);
    let isReleased = false;
    const release = () => {
      if (isReleased) return;
      isReleased = true;
      queue.inFlight -= 1;
      this.pump(model, queue);
    };
    if (capacity === 0 || (queue.inFlight < capacity && queue.waiting.length === 0)) {
      queue.inFlight += 1;
      return release;
    }
    if (queue.waiting.length >= this.policy.queueSize)
      throw this.refusal(
        model,
        `model "${model}" is busy: ${queue.inFlight} requests in flight and its queue of ${this.policy.queueSize} is full`,
        "model_queue_full",
      );
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          cleanup();
          resolve();
        },
        refuse: (error) => {
          cleanup();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.drop(queue, waiter);
        waiter.refuse(
          this.refusal(
            model,
            `model "${model}" is busy: the request waited ${this.policy.maxWaitMs} ms in its queue without a free endpoint`,
            "model_queue_timeout",
          ),
        );
      }, this.policy.maxWaitMs);
      const onAbort = () => {
        this.drop(queue, waiter);
        waiter.refuse(clientLeft());
      };
      const cleanup = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      queue.waiting.push(waiter);
    });
    return release;
  }

  /** Requests waiting for the model now. */
  depth(model: string): number {
    return this.models.get(model)?.waiting.length ?? 0;
  }

  /** Every model with a queue, for /metrics. */
  depths(): Array<{ model: string; waiting: number; inFlight: number }> {
    return [...this.models].map(([model, q]) => ({
      model,
      waiting: q.waiting.length,
      inFlight: q.inFlight,
    }));
  }

  /** Requests refused since start (queue full, waited too long), for /metrics. */
  refusals(): Array<{ model: string; reason: string; count: number }> {
    return [...this.refused].flatMap(([model, byCode]) =>
      [...byCode].map(([reason, count]) => ({ model, reason, count })),
    );
  }

  /** Lets waiting requests in when endpoints were added (a replica got ready). */
  wake(): void {
    for (const [model, queue] of this.models) this.pump(model, queue);
  }

  private pump(model: string, queue: ModelQueue): void {
    const capacity = this.capacity(model);
    while (capacity === 0 || queue.inFlight < capacity) {
      const waiter = queue.waiting.shift();
      if (!waiter) break;
      queue.inFlight += 1;
      waiter.admit();
    }
    if (queue.inFlight === 0 && queue.waiting.length === 0) this.models.delete(model);
  }

  private drop(queue: ModelQueue, waiter: Waiter): void {
    const index = queue.waiting.indexOf(waiter);
    if (index >= 0) queue.waiting.splice(index, 1);
  }

  private of(model: string): ModelQueue {
    let queue = this.models.get(model);
    if (!queue) {
      queue = { inFlight: 0, waiting: [] };
      this.models.set(model, queue);
    }
    return queue;
  }

  private refusal(model: string, message: string, code: string): GatewayError {
    const byCode = this.refused.get(model) ?? new Map<string, number>();
    byCode.set(code, (byCode.get(code) ?? 0) + 1);
    this.refused.set(model, byCode);
    const seconds = Math.max(1, Math.ceil(this.policy.maxWaitMs / 1_000 / 2));
    return new GatewayError(429, `${message}; retry in ${seconds} s`, "rate_limit_error", code, {
      "retry-after": String(seconds),
    });
  }
}
