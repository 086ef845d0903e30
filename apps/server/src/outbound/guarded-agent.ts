// The connect-time half of the outbound guard (@llmgw/domain's checkOutboundUrl is the other):
// an undici Agent whose DNS lookup runs every address a name resolves to through the same
// judgement, so a name that points inside is refused on the connection that would have used it,
// with no window between the check and the connect for DNS to change its answer.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { barredAddress } from "@llmgw/domain";
import { Agent } from "undici";

class RefusedAddressError extends Error {
  override readonly name = "RefusedAddressError";
}

/**
 * A `lookup` for net.connect that fails on any address the guard bars. `who` names the callers in
 * the refusal ("external models", "MCP servers"); `hint` says which setting would allow it.
 */
export function guardedLookup(allowPrivate: boolean, who: string, hint = ""): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      for (const { address } of addresses) {
        const why = barredAddress(address, allowPrivate);
        if (why)
          return callback(
            new RefusedAddressError(
              `${hostname} resolves to ${address}, ${why}; ${who} may not reach it${hint}`,
            ),
            "",
            0,
          );
      }
      if (options.all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new RefusedAddressError(`${hostname} has no address`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}

export interface GuardedAgentOptions {
  allowPrivate: boolean;
  who: string;
  hint?: string;
  connections?: number;
  timeoutMs?: number;
}

export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const timeoutMs = options.timeoutMs ?? 300_000;
  return new Agent({
    connections: options.connections ?? 128,
    keepAliveTimeout: 30_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { lookup: guardedLookup(options.allowPrivate, options.who, options.hint) },
  });
}
