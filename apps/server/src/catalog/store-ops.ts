// What the catalog store's operations share: its settings, its state and the one refusal for a
// model that is not there. Kept apart so each operation's file imports it without a cycle.
import { ServiceError } from "@llmgw/api";
import type { Catalog, CatalogResult } from "@llmgw/domain";
import type { Database } from "@llmgw/db";
import type { CatalogState } from "./catalog-rows";

export interface CatalogStoreDeps {
  log: (line: string) => void;
  nowMs: () => number;
  /** LLMGW_ALLOW_PRIVATE_UPSTREAMS: an external model may name a private (not metadata) address. */
  allowPrivateUpstreams?: boolean;
  /** LLMGW_KEY_FILE_DIR: the one directory key files may come from; null or absent: none may. */
  keyFileDir?: string | null;
  /** Seals external models' provider keys kept in the store. */
  masterKey: Uint8Array;
  /** Peer clusters' models (`PEER/MODEL`), which a fallback may name too. */
  peerModels?: PeerModelNames;
}

/** Filled in once the federation has started: the catalog opens before it. */
export interface PeerModelNames {
  known(name: string): boolean;
}

export interface Ops {
  db: Database;
  deps: CatalogStoreDeps;
  state(): CatalogState;
  swap(next: CatalogState): void;
}

export function unknownModel(name: string): ServiceError {
  return new ServiceError(
    "not_found",
    `model "${name}" is not in the catalog; see \`llmgw ctl models\``,
    { code: "model.not_found", params: { name } },
  );
}

export function built(result: CatalogResult, what: string): Catalog {
  // The definition was validated alone already; a set-level refusal here is a bug, not bad input.
  if (!result.ok)
    throw new ServiceError("invalid", `${what} was refused: ${result.errors.join("; ")}`, {
      code: "model.catalog_refused",
      params: { reason: result.errors.join("; ") },
      details: result.errors,
    });
  return result.catalog;
}
