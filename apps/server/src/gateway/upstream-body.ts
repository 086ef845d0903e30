// An engine's answer body as the gateway reads it: chunks handed to one reader as undici's parser
// produces them, with the reader's own backpressure (answer false to pause, resume() to go on).
// This replaces a Readable stream per request and an async iterator (promises per chunk) over it:
// the relay writes each chunk to the client on the turn it arrives.
import type { Readable } from "node:stream";

export interface UpstreamBody {
  /**
   * Hands each chunk to `onChunk` as it comes; an answer of false pauses the body until
   * `resume()`. Resolves when the body ends, rejects when it breaks off. One reader only.
   */
  read(onChunk: (chunk: Buffer) => boolean): Promise<void>;
  /** Goes on after `onChunk` answered false. */
  resume(): void;
  /** Stops reading: the rest is left unread and the connection to the engine closes. */
  cancel(): void;
  /** Reads the rest and throws it away (a failed attempt's answer), so the connection is kept. */
  dump(): Promise<void>;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
}

/** Past this, a dumped answer is cut off rather than read (undici's own dump limit). */
const DUMP_BYTES_MAX = 128 * 1024;

/** `dump` and `text` for any body that can be read. */
abstract class ReadableBody implements UpstreamBody {
  abstract read(onChunk: (chunk: Buffer) => boolean): Promise<void>;
  abstract resume(): void;
  abstract cancel(): void;

  async dump(): Promise<void> {
    let size = 0;
    await this.read((chunk) => {
      size += chunk.length;
      if (size > DUMP_BYTES_MAX) this.cancel();
      return true;
    }).catch(() => undefined);
  }

  async text(): Promise<string> {
    const chunks: Buffer[] = [];
    await this.read((chunk) => {
      chunks.push(chunk);
      return true;
    });
    return Buffer.concat(chunks).toString("utf8");
  }
}

/** Drives a body from the dispatch handler that receives it (see upstream.ts). */
export interface BodyFeed {
  pause(): void;
  resume(): void;
  abort(reason: Error): void;
}

/**
 * The body of one upstream answer, filled by the dispatch handler. Chunks that arrive before the
 * reader (or while it waits) are held, and the feed paused until the reader takes them.
 */
export class DispatchedBody extends ReadableBody {
  private onChunk: ((chunk: Buffer) => boolean) | null = null;
  private readonly held: Buffer[] = [];
  private isWaiting = false;
  /** Set once the engine's answer has ended: null when whole, else why it broke off. */
  private ended: { error: Error | null } | null = null;
  private settle: { resolve(): void; reject(error: Error): void } | null = null;

  constructor(private readonly feed: BodyFeed) {
    super();
  }

  read(onChunk: (chunk: Buffer) => boolean): Promise<void> {
    if (this.onChunk) return Promise.reject(new Error("the answer's body is already being read"));
    this.onChunk = onChunk;
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
      this.flush();
    });
  }

  resume(): void {
    this.isWaiting = false;
    this.flush();
  }

  cancel(): void {
    this.feed.abort(new Error("the gateway stopped reading the answer"));
  }

  /** From the handler: one chunk of the engine's body. */
  push(chunk: Buffer): void {
    if (this.onChunk === null || this.isWaiting || this.held.length > 0) {
      this.held.push(chunk);
      this.feed.pause();
      return;
    }
    if (!this.onChunk(chunk)) {
      this.isWaiting = true;
      this.feed.pause();
    }
  }

  /** From the handler: the body ended (error null) or broke off. */
  end(error: Error | null): void {
    if (this.ended) return;
    this.ended = { error };
    // A break ends the read at once; what was held is dropped with it, as a stream's would be.
    if (error) this.held.length = 0;
    this.flush();
  }

  private flush(): void {
    const onChunk = this.onChunk;
    if (onChunk === null) return;
    // A break ends the read even while the reader waits for its client to drain.
    if (this.ended?.error) return this.finish(this.ended.error);
    while (!this.isWaiting && this.held.length > 0) {
      const chunk = this.held.shift() as Buffer;
      if (!onChunk(chunk)) this.isWaiting = true;
    }
    if (this.isWaiting) return;
    if (this.ended === null) this.feed.resume();
    else this.finish(this.ended.error);
  }

  private finish(error: Error | null): void {
    const settle = this.settle;
    this.settle = null;
    if (error) settle?.reject(error);
    else settle?.resolve();
  }
}

/** A Node Readable (another dispatcher's answer, a peer's) read the same way, with listeners. */
export class StreamBody extends ReadableBody {
  constructor(private readonly stream: Readable) {
    super();
  }

  read(onChunk: (chunk: Buffer) => boolean): Promise<void> {
    const { stream } = this;
    return new Promise((resolve, reject) => {
      const done = (error: Error | null) => {
        stream.off("data", onData);
        stream.off("end", onEnd);
        stream.off("error", onError);
        stream.off("close", onClose);
        if (error) reject(error);
        else resolve();
      };
      const onData = (chunk: Buffer) => {
        if (!onChunk(chunk)) stream.pause();
      };
      const onEnd = () => done(null);
      const onError = (error: Error) => done(error);
      const onClose = () => {
        if (!stream.readableEnded) done(new Error("the answer closed before its end"));
      };
      stream.on("data", onData);
      stream.on("end", onEnd);
      stream.on("error", onError);
      stream.on("close", onClose);
    });
  }

  resume(): void {
    this.stream.resume();
  }

  cancel(): void {
    this.stream.destroy();
  }
}

/**
 * The body's chunks one at a time, for a reader that awaits between them (the guard): the body
 * waits while a chunk is being handled. Breaking out of the loop cancels the rest.
 */
export async function* chunksOf(body: UpstreamBody): AsyncGenerator<Buffer> {
  const queue: Buffer[] = [];
  const state: { wake: (() => void) | null; done: { error: Error | null } | null } = {
    wake: null,
    done: null,
  };
  const ping = () => {
    const wake = state.wake;
    state.wake = null;
    wake?.();
  };
  body
    .read((chunk) => {
      queue.push(chunk);
      ping();
      return false;
    })
    .then(
      () => (state.done = { error: null }),
      (error: unknown) => (state.done = { error: error as Error }),
    )
    .finally(ping);
  try {
    for (;;) {
      const chunk = queue.shift();
      if (chunk) {
        yield chunk;
        if (queue.length === 0) body.resume();
        continue;
      }
      if (state.done?.error) throw state.done.error;
      if (state.done) return;
      await new Promise<void>((resolve) => (state.wake = resolve));
    }
  } finally {
    if (!state.done) body.cancel();
  }
}
