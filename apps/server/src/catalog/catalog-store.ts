// The contract between the catalog (desired state, kept in the store) and everything that reads
// it (reconciler, router, services). The implementation lives beside this file.
import type { Actor } from "@llmgw/api";
import type { Catalog, ModelDefinition, OwnerRef } from "@llmgw/domain";

export interface CatalogEntryMeta {
  /** Bumped on every change of the model's definition. */
  revision: number;
  fallbacks: string[];
  updatedAt: Date;
  updatedBy: string;
  /** An external model's provider key, sealed; null when none is set. Never leaves the server. */
  externalKeySealed: string | null;
}

export interface CatalogStore {
  /** The current immutable catalog. Readers keep the value they took for a whole operation. */
  current(): Catalog;
  meta(name: string): CatalogEntryMeta | undefined;
  /** Called after every swap, with the catalog before and after. */
  subscribe(listener: (next: Catalog, previous: Catalog) => void): () => void;
  /** Validates, stores, audits and swaps; throws ServiceError("invalid") listing every problem. */
  add(definition: unknown, actor: Actor): Promise<ModelDefinition>;
  /** Throws ServiceError("not_found") for an unknown model. */
  remove(name: string, actor: Actor): Promise<void>;
  setFallbacks(name: string, fallbacks: string[], actor: Actor): Promise<void>;
  /**
   * Seals and stores an external model's provider key (null clears it); audited without the key.
   * Throws ServiceError("not_found") for an unknown model, ("invalid") for one that is not external.
   */
  setExternalKey(name: string, key: string | null, actor: Actor): Promise<void>;
  /**
   * Sets (null clears) the model's owner without a new revision, so its replicas keep running;
   * audited. Throws ServiceError("not_found") for an unknown model. The caller checks the owner.
   */
  setOwner(name: string, owner: OwnerRef | null, actor: Actor): Promise<void>;
  /**
   * Reads the store again and swaps in what changed there (another control plane's edits); a
   * catalog that did not change is not swapped, so subscribers hear only of real changes.
   */
  reload(): Promise<void>;
  /** The external model's sealed key, opened now; null when none is set or it does not open. */
  externalKey(name: string): string | null;
}
