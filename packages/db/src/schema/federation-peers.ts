// Peer clusters this gateway offers models of (`PEER/MODEL`). The peer's API key is kept only as
// ciphertext under the master key, the peer's name bound in; the models are the peer's /v1/models
// as last synced, a model a fallback still names kept withdrawn rather than dropped.
import { boolean, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns";

export interface PeerModelRow {
  name: string;
  isWithdrawn: boolean;
}

export const federationPeers = pgTable("federation_peers", {
  name: text("name").primaryKey(),
  url: text("url").notNull(),
  /** `v1:…` ciphertext of the peer's API key. */
  keySealed: text("key_sealed").notNull(),
  /** Whether the caller's attribution (key owner and prefix) goes along to the peer. */
  sendsTags: boolean("sends_tags").notNull().default(false),
  models: jsonb("models").$type<PeerModelRow[]>().notNull().default([]),
  syncedAt: timestamp("synced_at", { withTimezone: true }),
  createdBy: text("created_by").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type FederationPeerRow = typeof federationPeers.$inferSelect;
