// Which presented keys are already known to be well formed and to hash to which stored hash, so a
// /v1 request of a key seen before costs a map lookup instead of a checksum and an HMAC (about
// 3 and 5 µs). It remembers only what those proved and says nothing of the key's state: the caller
// still reads revocation and expiry from the key's row on every request, and asks `matches` with
// that row's current hash, so a row whose hash changed is checked afresh. Only keys that matched
// are added (a guessed key never is), at most `entriesMax`, the oldest dropped first; `forget`
// drops a hash's entries at a revoke. A presented key is kept as a copy of its own: the one a request
// hands in is a slice of its Authorization header, which would keep the whole header alive with it.
type Verified = { prefix: string; keyHash: string };

export class VerifiedKeys {
  /** Presented key → what it was found to be. Map order is insertion order. */
  private readonly known = new Map<string, Verified>();

  constructor(
    private readonly verify: (presented: string, keyHash: string) => boolean,
    private readonly entriesMax = 10_000,
  ) {}

  /** The prefix of a key that matched before (so it needs no parsing), else undefined. */
  prefixOf(presented: string): string | undefined {
    return this.known.get(presented)?.prefix;
  }

  matches(presented: string, prefix: string, keyHash: string): boolean {
    if (this.known.get(presented)?.keyHash === keyHash) return true;
    if (!this.verify(presented, keyHash)) return false;
    this.known.set(Buffer.from(presented).toString(), { prefix, keyHash });
    if (this.known.size > this.entriesMax) {
      const oldest = this.known.keys().next();
      if (!oldest.done) this.known.delete(oldest.value);
    }
    return true;
  }

  forget(keyHash: string): void {
    for (const [presented, { keyHash: hash }] of this.known)
      if (hash === keyHash) this.known.delete(presented);
  }
}
