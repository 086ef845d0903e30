// The control planes an agent knows. A RegisterAck names the agent-port addresses of the control
// planes; they join the list, never replace it: an address the operator gave may be one the
// server does not know itself by (a load balancer, an IP), and a control plane down right now
// may be back later.

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
