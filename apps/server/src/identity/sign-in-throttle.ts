// Slows password guessing without letting a stranger lock anyone out. Failed password sign-ins
// are counted per address, per username, and per username at an address; past a few free failures
// each key makes the next attempt wait, twice as long each time. A username's waits are capped
// short, and at an address the person has signed in from only their own failures there count, so
// failures sent by others cannot keep the admin out. In memory: a restart forgets.

export interface ThrottlePolicy {
  /** Failures a key may have before the next attempt waits. */
  freeFailures: number;
  /** The first wait; each further failure doubles it. */
  firstDelayMs: number;
  /** The longest wait for an address, for any name tried from it. */
  addressDelayMaxMs: number;
  /** The longest wait for one username (anywhere, or at one address): a delay, never a lockout. */
  usernameDelayMaxMs: number;
  /** A key with no failure for this long starts again from zero. */
  forgetAfterMs: number;
  /** A successful sign-in makes its address known to that username for this long. */
  knownAddressMs: number;
}

export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  freeFailures: 10,
  firstDelayMs: 1_000,
  addressDelayMaxMs: 15 * 60_000,
  usernameDelayMaxMs: 60_000,
  forgetAfterMs: 60 * 60_000,
  knownAddressMs: 30 * 86_400_000,
};

interface Strikes {
  failures: number;
  lastFailureMs: number;
}

// Past this many keys, forgotten ones are swept, so spraying addresses cannot grow memory freely.
const KEYS_SWEEP_AT = 10_000;

export class SignInThrottle {
  private readonly strikes = new Map<string, Strikes>();
  private readonly knownSinceMs = new Map<string, number>();

  constructor(
    private readonly nowMs: () => number,
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE_POLICY,
  ) {}

  /** How long this attempt must wait before any password is checked; 0 lets it through. */
  waitMs(username: string, address: string): number {
    const nowMs = this.nowMs();
    const waits = this.keysFor(username, address).map(([key, maxMs]) =>
      this.waitFor(key, maxMs, nowMs),
    );
    return Math.max(0, ...waits);
  }

  /**
   * Counts the attempt as a failure before the password is checked, so attempts sent in parallel
   * are counted too; `succeeded` takes it back.
   */
  attempt(username: string, address: string): void {
    const nowMs = this.nowMs();
    if (this.strikes.size > KEYS_SWEEP_AT) this.sweep(nowMs);
    for (const [key] of this.keysFor(username, address, true)) {
      const current = this.current(key, nowMs);
      this.strikes.set(key, { failures: current.failures + 1, lastFailureMs: nowMs });
    }
  }

  succeeded(username: string, address: string): void {
    this.strikes.delete(userKey(username));
    this.strikes.delete(pairKey(username, address));
    // The address keeps the failures it made for other names; only this attempt is taken back.
    this.takeBack(addressKey(address));
    this.knownSinceMs.set(pairKey(username, address), this.nowMs());
  }

  /**
   * Takes back an attempt that ended neither in a wrong password nor in a session: the password
   * was right but the person may not sign in (no role, disabled), or the directory failed.
   */
  forgive(username: string, address: string): void {
    for (const [key] of this.keysFor(username, address, true)) this.takeBack(key);
  }

  private takeBack(key: string): void {
    const current = this.strikes.get(key);
    if (current && current.failures > 1)
      this.strikes.set(key, { ...current, failures: current.failures - 1 });
    else this.strikes.delete(key);
  }

  /**
   * The keys an attempt is counted under, each with its longest wait. At an address the person has
   * signed in from, only their own name there counts, so a shared address (the console's, a NAT)
   * that others fail from does not keep them out.
   */
  private keysFor(username: string, address: string, all = false): [string, number][] {
    const pair: [string, number] = [pairKey(username, address), this.policy.usernameDelayMaxMs];
    if (!all && this.isKnown(username, address)) return [pair];
    return [
      pair,
      [addressKey(address), this.policy.addressDelayMaxMs],
      [userKey(username), this.policy.usernameDelayMaxMs],
    ];
  }

  private isKnown(username: string, address: string): boolean {
    const sinceMs = this.knownSinceMs.get(pairKey(username, address));
    return sinceMs !== undefined && this.nowMs() - sinceMs < this.policy.knownAddressMs;
  }

  private current(key: string, nowMs: number): Strikes {
    const strikes = this.strikes.get(key);
    if (!strikes || nowMs - strikes.lastFailureMs > this.policy.forgetAfterMs)
      return { failures: 0, lastFailureMs: nowMs };
    return strikes;
  }

  private waitFor(key: string, delayMaxMs: number, nowMs: number): number {
    const { failures, lastFailureMs } = this.current(key, nowMs);
    const over = failures - this.policy.freeFailures;
    if (over < 0) return 0;
    const delayMs = Math.min(delayMaxMs, this.policy.firstDelayMs * 2 ** Math.min(over, 30));
    return Math.max(0, lastFailureMs + delayMs - nowMs);
  }

  private sweep(nowMs: number): void {
    for (const [key, strikes] of this.strikes) {
      if (nowMs - strikes.lastFailureMs > this.policy.forgetAfterMs) this.strikes.delete(key);
    }
  }
}

// Usernames compare without case: `Admin` and `admin` are one target.
const userKey = (username: string) => `user\u0000${username.toLowerCase()}`;
const addressKey = (address: string) => `addr\u0000${address}`;
const pairKey = (username: string, address: string) =>
  `pair\u0000${username.toLowerCase()}\u0000${address}`;
