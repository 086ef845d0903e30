// The node certificates the cluster CA issues, and which are revoked. Revoked serials and each
// node's valid certificates are held in memory (loaded at start, changed with every write) so the
// TLS handshake's check never waits on the store.
import { and, eq, isNull, nodeCertificates, type Database } from "@llmgw/db";
import type { NodeCertificateRow } from "@llmgw/db";
import {
  normalizeSerialHex,
  readCertificate,
  signNodeCsr,
  type KeyAndCertificate,
} from "@llmgw/pki";

export interface IssuedCertificate {
  certPem: string;
  serialHex: string;
  notAfterMs: number;
}

export class NodeCertificates {
  private readonly revoked = new Set<string>();
  /** Unrevoked certificates by node: serial → not-after. */
  private readonly validByNode = new Map<string, Map<string, number>>();

  private constructor(
    private readonly db: Database,
    private readonly ca: KeyAndCertificate,
    private readonly validSeconds: number,
    private readonly nowMs: () => number,
  ) {}

  static async open(
    db: Database,
    ca: KeyAndCertificate,
    validSeconds: number,
    nowMs: () => number,
  ): Promise<NodeCertificates> {
    const book = new NodeCertificates(db, ca, validSeconds, nowMs);
    for (const row of await db.select().from(nodeCertificates)) book.remember(row);
    return book;
  }

  isRevoked(serialHex: string): boolean {
    return this.revoked.has(normalizeSerialHex(serialHex));
  }

  /** A node holds an unexpired, unrevoked certificate: nobody else may join under its id. */
  hasValidCertificate(nodeId: string): boolean {
    const nowMs = this.nowMs();
    return [...(this.validByNode.get(nodeId)?.values() ?? [])].some((notAfter) => notAfter > nowMs);
  }

  /** The latest expiry among each node's unrevoked certificates, for /metrics. */
  newestExpiryByNode(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [nodeId, serials] of this.validByNode)
      if (serials.size > 0) out.set(nodeId, Math.max(...serials.values()));
    return out;
  }

  /** Signs the CSR (checked: signature, CN = nodeId) and records the certificate. */
  async issue(nodeId: string, csrPem: string): Promise<IssuedCertificate> {
    const issued = await signNodeCsr(this.ca, csrPem, {
      nodeId,
      validDays: Math.ceil(this.validSeconds / 86_400),
      validSeconds: this.validSeconds,
    });
    const facts = await readCertificate(issued.certPem);
    const [row] = await this.db
      .insert(nodeCertificates)
      .values({
        serial: issued.serialHex,
        nodeId,
        fingerprint: facts.fingerprintSha256,
        notBefore: new Date(facts.notBeforeMs),
        notAfter: new Date(facts.notAfterMs),
        issuedAt: new Date(this.nowMs()),
      })
      .returning();
    if (row) this.remember(row);
    return issued;
  }

  /** Revokes every unrevoked certificate of the node; answers how many. */
  async revokeNode(nodeId: string, reason: string): Promise<number> {
    const rows = await this.db
      .update(nodeCertificates)
      .set({ revokedAt: new Date(this.nowMs()), reason })
      .where(and(eq(nodeCertificates.nodeId, nodeId), isNull(nodeCertificates.revokedAt)))
      .returning();
    for (const row of rows) this.remember(row);
    return rows.length;
  }

  private remember(row: NodeCertificateRow): void {
    const serials = this.validByNode.get(row.nodeId) ?? new Map<string, number>();
    if (row.revokedAt) {
      this.revoked.add(row.serial);
      serials.delete(row.serial);
    } else {
      serials.set(row.serial, row.notAfter.getTime());
    }
    this.validByNode.set(row.nodeId, serials);
  }
}
