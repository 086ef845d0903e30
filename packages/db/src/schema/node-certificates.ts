// Every certificate the cluster CA issued to a node. The server keeps the revoked serials in
// memory (loaded at start, updated on change) so a TLS handshake never waits on the store.
import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

export const nodeCertificates = pgTable(
  "node_certificates",
  {
    /** Lowercase hex, no leading zeros (normalizeSerialHex in @llmgw/pki). */
    serial: text("serial").primaryKey(),
    nodeId: text("node_id").notNull(),
    /** hex SHA-256 of the certificate's DER. */
    fingerprint: text("fingerprint").notNull(),
    notBefore: timestamp("not_before", { withTimezone: true }).notNull(),
    notAfter: timestamp("not_after", { withTimezone: true }).notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Why it was revoked (`node removed by admin`, `renewed`…); empty while valid. */
    reason: text("reason").notNull().default(""),
  },
  (table) => [index("node_certificates_node_idx").on(table.nodeId)],
);

export type NodeCertificateRow = typeof nodeCertificates.$inferSelect;
