// The hop list a request carries between clusters (`x-llmgw-hop: id1,id2`): the ids of the
// clusters it passed, oldest first. A cluster that finds its own id there has seen the request
// before, so forwarding it again would only send it round the loop once more: it is refused.
export const HOP_HEADER = "x-llmgw-hop";

/** More hops than any sane federation has; a longer list is a loop or a forged header. */
export const HOPS_MAX = 8;

const CLUSTER_ID = /^[a-z0-9-]{1,64}$/;

export type HopCheck =
  | { ok: true; hops: string[] }
  | { ok: false; code: "federation_loop" | "federation_bad_hop"; why: string };

/** Reads the header as the gateway received it and judges it against this cluster's id. */
export function checkHops(header: string | string[] | undefined, selfId: string): HopCheck {
  if (header === undefined) return { ok: true, hops: [] };
  const text = Array.isArray(header) ? header.join(",") : header;
  const hops = text
    .split(",")
    .map((hop) => hop.trim())
    .filter((hop) => hop !== "");
  const bad = hops.find((hop) => !CLUSTER_ID.test(hop));
  if (bad !== undefined)
    return {
      ok: false,
      code: "federation_bad_hop",
      why: `${HOP_HEADER} holds "${bad.slice(0, 64)}", which is not a cluster id`,
    };
  if (hops.includes(selfId))
    return {
      ok: false,
      code: "federation_loop",
      why: `this request already passed cluster ${selfId} (${HOP_HEADER}: ${hops.join(",")}); it would go round a loop of peers`,
    };
  if (hops.length >= HOPS_MAX)
    return {
      ok: false,
      code: "federation_loop",
      why: `this request already passed ${hops.length} clusters, the most a request may pass is ${HOPS_MAX}`,
    };
  return { ok: true, hops };
}

/** The header a request sent on to a peer carries: the hops so far and this cluster. */
export function hopsOnward(hops: readonly string[], selfId: string): string {
  return [...hops, selfId].join(",");
}
