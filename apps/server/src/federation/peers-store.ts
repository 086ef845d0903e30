// The federation_peers rows: read whole at start, written one change at a time (with its audit
// row). The peer's key is sealed with the peer's name bound in, so a sealed key copied onto
// another peer's row does not open.
import { ServiceError, type Actor } from "@llmgw/api";
import { eq, federationPeers, type Database, type FederationPeerRow } from "@llmgw/db";
import { recordAudit } from "../identity/audit";
import { seal, unseal } from "../seal/seal";
import type { PeerModel } from "./sync-diff";

const sealName = (peer: string) => `federation-peer-key:${peer}`;

export class PeersStore {
  constructor(
    private readonly db: Database,
    private readonly masterKey: Uint8Array,
  ) {}

  all(): Promise<FederationPeerRow[]> {
    return this.db.select().from(federationPeers).orderBy(federationPeers.name);
  }

  async add(
    input: { name: string; url: string; key: string; sendsTags: boolean },
    actor: Actor,
  ): Promise<FederationPeerRow> {
    const keySealed = seal(this.masterKey, sealName(input.name), Buffer.from(input.key, "utf8"));
    const [row] = await this.db
      .insert(federationPeers)
      .values({
        ...{ name: input.name, url: input.url, keySealed, sendsTags: input.sendsTags },
        createdBy: actor.username,
      })
      .onConflictDoNothing()
      .returning();
    if (!row)
      throw new ServiceError(
        "conflict",
        `peer "${input.name}" exists; remove it first to change its address or key`,
        { code: "federation.peer_exists", params: { name: input.name } },
      );
    await recordAudit(this.db, {
      actor: actor.username,
      action: "federation.add",
      target: input.name,
      details: { url: input.url, sendsTags: input.sendsTags },
    });
    return row;
  }

  async remove(name: string, actor: Actor): Promise<void> {
    const removed = await this.db
      .delete(federationPeers)
      .where(eq(federationPeers.name, name))
      .returning({ name: federationPeers.name });
    if (removed.length === 0) throw peerNotFound(name);
    await recordAudit(this.db, {
      actor: actor.username,
      action: "federation.remove",
      target: name,
    });
  }

  async saveModels(name: string, models: PeerModel[], at: Date): Promise<void> {
    await this.db
      .update(federationPeers)
      .set({ models, syncedAt: at, updatedAt: at })
      .where(eq(federationPeers.name, name));
  }

  openKey(row: FederationPeerRow): string {
    return unseal(this.masterKey, sealName(row.name), row.keySealed).toString("utf8");
  }
}

export function peerNotFound(name: string): ServiceError {
  return new ServiceError(
    "not_found",
    `peer "${name}" is not known here; see \`llmgw ctl federation list\``,
    { code: "federation.peer_not_found", params: { name } },
  );
}
