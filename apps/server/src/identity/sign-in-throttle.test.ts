// The sign-in throttle on a fixed clock: growing waits per address and per username, and no way
// for a stranger to keep someone out of an address they have signed in from.
import { describe, expect, it } from "vitest";
import { DEFAULT_THROTTLE_POLICY, SignInThrottle } from "./sign-in-throttle";

function clock() {
  const state = { nowMs: 1_000_000 };
  return { state, nowMs: () => state.nowMs };
}

/** Fails `times` sign-ins, each sent as soon as the throttle lets it. */
function failRepeatedly(
  throttle: SignInThrottle,
  c: ReturnType<typeof clock>,
  username: string,
  address: string,
  times: number,
) {
  const waitsMs: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const waitMs = throttle.waitMs(username, address);
    waitsMs.push(waitMs);
    c.state.nowMs += waitMs;
    throttle.attempt(username, address);
  }
  return waitsMs;
}

describe("sign-in throttle", () => {
  it("lets ten failures through, then doubles the wait each time", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    expect(failRepeatedly(throttle, c, "admin", "203.0.113.9", 14)).toEqual([
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1_000, 2_000, 4_000, 8_000,
    ]);
  });

  it("counts attempts sent in parallel before any password is checked", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    for (let i = 0; i < 9; i += 1) throttle.attempt("admin", "203.0.113.9");
    expect(throttle.waitMs("admin", "203.0.113.9")).toBe(0);
    throttle.attempt("admin", "203.0.113.9");
    expect(throttle.waitMs("admin", "203.0.113.9")).toBe(1_000);
  });

  it("slows an address that tries many names, for every name", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    for (let i = 0; i < 13; i += 1) throttle.attempt(`user${i}`, "203.0.113.9");
    expect(throttle.waitMs("someone-else", "203.0.113.9")).toBe(8_000);
    expect(throttle.waitMs("someone-else", "198.51.100.1")).toBe(0);
  });

  it("caps a username's wait, so failures from elsewhere only delay its owner", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    for (let i = 0; i < 40; i += 1) throttle.attempt("admin", `203.0.113.${i}`);
    expect(throttle.waitMs("admin", "198.51.100.1")).toBe(
      DEFAULT_THROTTLE_POLICY.usernameDelayMaxMs,
    );
  });

  it("never keeps the admin out of an address they signed in from, whatever others fail", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    throttle.attempt("admin", "192.0.2.10");
    throttle.succeeded("admin", "192.0.2.10");
    // A stranger sprays the admin's name from many addresses and from the admin's own (a NAT).
    for (let i = 0; i < 40; i += 1) throttle.attempt("admin", `203.0.113.${i}`);
    for (let i = 0; i < 20; i += 1) throttle.attempt(`guess${i}`, "192.0.2.10");
    expect(throttle.waitMs("admin", "192.0.2.10")).toBe(0);
    expect(throttle.waitMs("newcomer", "192.0.2.10")).toBeGreaterThan(0);
  });

  it("takes back attempts that were not wrong passwords", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    for (let i = 0; i < 20; i += 1) {
      throttle.attempt("bob", "203.0.113.9");
      throttle.forgive("bob", "203.0.113.9");
    }
    expect(throttle.waitMs("bob", "203.0.113.9")).toBe(0);
    expect(throttle.waitMs("eve", "203.0.113.9")).toBe(0);
  });

  it("forgets a key an hour after its last failure, and a success clears the name's count", () => {
    const c = clock();
    const throttle = new SignInThrottle(c.nowMs);
    failRepeatedly(throttle, c, "ada", "203.0.113.9", 13);
    expect(throttle.waitMs("ada", "203.0.113.9")).toBeGreaterThan(0);
    c.state.nowMs += DEFAULT_THROTTLE_POLICY.forgetAfterMs + 1;
    expect(throttle.waitMs("ada", "203.0.113.9")).toBe(0);

    failRepeatedly(throttle, c, "bob", "198.51.100.7", 11);
    throttle.succeeded("bob", "198.51.100.7");
    expect(throttle.waitMs("bob", "198.51.100.7")).toBe(0);
  });
});
