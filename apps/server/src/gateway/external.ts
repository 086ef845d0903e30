// What calling an external provider needs beyond a replica: its key, read from its file on every
// use (an unreadable or empty file leaves that key out), and an undici Agent whose DNS lookup
// refuses private, loopback, link-local and metadata addresses unless private upstreams are
// allowed, so a name that resolves somewhere it should not is caught at connect time too.
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { readFile } from "node:fs/promises";
import type { LookupFunction } from "node:net";
import { barredAddress } from "@llmgw/domain";
import { Agent } from "undici";

/** The key in the file, or null when the file cannot be read or is empty. */
export async function readKeyFile(path: string): Promise<string | null> {
  try {
    const key = (await readFile(path, "utf8")).trim();
    return key === "" ? null : key;
  } catch {
    return null;
  }
}

export class RefusedAddressError extends Error {
  override readonly name = "RefusedAddressError";
}

/** A `lookup` for net.connect that fails on any address the guard bars. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 0);
      for (const { address } of addresses) {
        const why = barredAddress(address, allowPrivate);
        if (why)
          return callback(
            new RefusedAddressError(
              `${hostname} resolves to ${address}, ${why}; external models may not reach it`,
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

export function createExternalAgent(allowPrivate: boolean): Agent {
  return new Agent({
    connections: 128,
    keepAliveTimeout: 30_000,
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
    connect: { lookup: guardedLookup(allowPrivate) },
  });
}
