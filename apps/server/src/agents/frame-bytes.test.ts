import { describe, expect, it } from "vitest";
import { frameBytes } from "./frame-bytes";

describe("frameBytes", () => {
  it("hands a whole message's buffer on as it is, with no copy per frame", () => {
    const message = Buffer.from([1, 2, 3]);
    expect(frameBytes(message)).toBe(message);
  });

  it("joins a fragmented message's fragments in order", () => {
    const fragments = [Buffer.from([1, 2]), Buffer.from([3]), Buffer.from([4, 5])];
    expect([...frameBytes(fragments)]).toEqual([1, 2, 3, 4, 5]);
  });

  it("reads an ArrayBuffer's bytes", () => {
    const raw = new Uint8Array([7, 8, 9]).buffer;
    expect([...frameBytes(raw)]).toEqual([7, 8, 9]);
  });
});
