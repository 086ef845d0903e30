// The control planes an agent knows. A RegisterAck names the agent-port addresses of the control
// planes; they join the list, never replace it: an address the operator gave may be one the
// server does not know itself by (a load balancer, an IP), and a control plane down right now
// may be back later.
import { must } from "@llmgw/domain";

/**
 * The list with the current address first, then the others known before in their order, then the
 * newly announced ones; no duplicates. Null when nothing changed (nothing to save).
 */
export function mergeServerUrls(
  currentUrl: string,
  knownUrls: readonly string[],
  announcedUrls: readonly string[],
): string[] | null {
  const announced = announcedUrls.map((url) => url.trim()).filter(isSocketUrl);
  if (announced.length === 0) return null;
  const merged = [...new Set([currentUrl, ...knownUrls, ...announced])];
  const unchanged =
    merged.length === knownUrls.length && merged.every((url, index) => url === knownUrls[index]);
  return unchanged ? null : merged;
}

/** Only a ws:// or wss:// address is worth keeping; anything else would fail every connection. */
function isSocketUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === "wss:" || protocol === "ws:";
}

/**
 * Which address the agent tries next: in turn after a failure, the same one again after a session
 * that closed normally, the next one after a silent one. A round is every address failing once.
 */
export class ServerRotation {
  private urls: readonly string[];
  private nextIndex = 0;
  private failuresInRound = 0;

  constructor(urls: readonly string[]) {
    if (urls.length === 0) throw new Error("AgentConnection needs at least one server address");
    this.urls = [...urls];
  }

  get known(): readonly string[] {
    return this.urls;
  }

  /** The address to connect to now; the one after it becomes the next. */
  take(): string {
    const url = must(this.urls[this.nextIndex % this.urls.length], "a server address");
    this.nextIndex = (this.nextIndex + 1) % this.urls.length;
    return url;
  }

  /** A session registered: the failures so far are forgotten. */
  worked(): void {
    this.failuresInRound = 0;
  }

  /** A session that had worked ended: back to its address, unless it was left for silence. */
  ended(url: string, silent: boolean): void {
    this.failuresInRound = 0;
    if (!silent) this.nextIndex = Math.max(0, this.urls.indexOf(url));
  }

  /** An attempt failed; true once every address has failed in turn (time to back off). */
  failed(): boolean {
    if (++this.failuresInRound < this.urls.length) return false;
    this.failuresInRound = 0;
    return true;
  }

  /** Merges what a RegisterAck named; the merged list when it changed, else null. */
  learn(currentUrl: string, announced: readonly string[]): readonly string[] | null {
    const merged = mergeServerUrls(currentUrl, this.urls, announced);
    if (merged === null) return null;
    this.urls = merged;
    // The current address is first now: the one to try after it is the second.
    this.nextIndex = 1 % merged.length;
    return merged;
  }
}
