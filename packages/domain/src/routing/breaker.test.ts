import { describe, expect, it } from "vitest";
import { Breaker, isEndpointFailure } from "./breaker";

const policy = { failuresToOpen: 5, openForMs: 30_000 };

describe("breaker", () => {
  it("opens after five consecutive failures, not four", () => {
    const breaker = new Breaker(policy);
    for (let i = 0; i < 4; i++) breaker.onFailure(1_000);
    expect(breaker.canTry(1_000)).toBe(true);
    breaker.onFailure(1_000);
    expect(breaker.stateAt(1_000)).toBe("open");
    expect(breaker.canTry(1_000)).toBe(false);
    expect(breaker.msUntilProbe(11_000)).toBe(20_000);
  });

  it("a success in between resets the count", () => {
    const breaker = new Breaker(policy);
    for (let i = 0; i < 4; i++) breaker.onFailure(0);
    breaker.onSuccess();
    for (let i = 0; i < 4; i++) breaker.onFailure(0);
    expect(breaker.stateAt(0)).toBe("closed");
  });

  it("lets exactly one probe through after the cool-down; its success closes the breaker", () => {
    const breaker = new Breaker(policy);
    for (let i = 0; i < 5; i++) breaker.onFailure(0);
    expect(breaker.canTry(29_999)).toBe(false);
    expect(breaker.canTry(30_000)).toBe(true);
    breaker.onAttempt(30_000);
    expect(breaker.canTry(30_001)).toBe(false);
    breaker.onSuccess();
    expect(breaker.stateAt(30_002)).toBe("closed");
  });

  it("a failed probe reopens it for another cool-down", () => {
    const breaker = new Breaker(policy);
    for (let i = 0; i < 5; i++) breaker.onFailure(0);
    breaker.onAttempt(30_000);
    breaker.onFailure(30_000);
    expect(breaker.canTry(59_999)).toBe(false);
    expect(breaker.canTry(60_000)).toBe(true);
  });

  it("counts 5xx and connection errors, never 4xx", () => {
    expect(isEndpointFailure(503)).toBe(true);
    expect(isEndpointFailure("connection-error")).toBe(true);
    expect(isEndpointFailure(400)).toBe(false);
    expect(isEndpointFailure(429)).toBe(false);
  });
});

describe("Breaker.trip", () => {
  it("opens at once and probes after the cool-down like any open breaker", () => {
    const breaker = new Breaker({ failuresToOpen: 5, openForMs: 1_000 });
    breaker.trip(100);
    expect(breaker.canTry(500)).toBe(false);
    expect(breaker.msUntilProbe(500)).toBe(600);
    expect(breaker.canTry(1_100)).toBe(true);
    breaker.onAttempt(1_100);
    breaker.onSuccess();
    expect(breaker.stateAt(1_200)).toBe("closed");
  });
});

describe("Breaker.onAbandoned", () => {
  it("clients hanging up never open it, and a half-open probe slot is given back", () => {
    const breaker = new Breaker({ failuresToOpen: 5, openForMs: 1_000 });
    for (let i = 0; i < 20; i++) {
      breaker.onAttempt(i);
      breaker.onAbandoned();
    }
    expect(breaker.stateAt(20)).toBe("closed");
    for (let i = 0; i < 5; i++) breaker.onFailure(100);
    breaker.onAttempt(1_100);
    expect(breaker.canTry(1_100)).toBe(false);
    breaker.onAbandoned();
    expect(breaker.canTry(1_101)).toBe(true);
    expect(breaker.failures()).toBe(5);
  });
});
