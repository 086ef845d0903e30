import { describe, expect, it } from "vitest";
import { FAILURES_TO_OPEN, PeerBreaker } from "./peer-breaker";

describe("a peer's breaker", () => {
  it("opens on one failed /ready check and closes only on a passed one", () => {
    const breaker = new PeerBreaker();
    expect(breaker.isOpen).toBe(false);
    breaker.checkFailed();
    expect(breaker.isOpen).toBe(true);
    breaker.requestServed();
    expect(breaker.isOpen).toBe(true);
    breaker.checkPassed();
    expect(breaker.isOpen).toBe(false);
  });

  it(`opens after ${FAILURES_TO_OPEN} failed requests running, not after one`, () => {
    const breaker = new PeerBreaker();
    breaker.requestFailed();
    expect(breaker.isOpen).toBe(false);
    breaker.requestServed();
    breaker.requestFailed();
    expect(breaker.isOpen).toBe(false);
    breaker.requestFailed();
    expect(breaker.isOpen).toBe(true);
  });
});
