// Announces a node whose link certificate is about to expire and was not renewed: an agent renews
// by itself two thirds into its certificate's life, so a newest certificate still this close to
// its end means the agent is gone, stuck or refused. Each certificate is announced once (a renewed
// one has another expiry and starts afresh), however many ticks see it; after a restart of the
// control plane a certificate still expiring is announced once more.
import type { EventParams } from "@llmgw/api";

/** Looked at this often: expiry is a matter of days, joins and renewals of seconds. */
const CERTIFICATE_CHECK_EVERY_MS = 10_000;

export interface ExpiringCertificate {
  nodeId: string;
  notAfterMs: number;
}

/** The nodes whose newest certificate ends within `warnBeforeMs` of `nowMs` (or has ended). */
export function expiringCertificates(
  newestExpiryByNode: ReadonlyMap<string, number>,
  nowMs: number,
  warnBeforeMs: number,
): ExpiringCertificate[] {
  return [...newestExpiryByNode]
    .filter(([, notAfterMs]) => notAfterMs - nowMs <= warnBeforeMs)
    .map(([nodeId, notAfterMs]) => ({ nodeId, notAfterMs }));
}

export interface CertificateExpiryDeps {
  certificates: { newestExpiryByNode(): Map<string, number> };
  warnBeforeMs: number;
  nowMs(): number;
  /** The node's name when it is known (connected since the start), else its id. */
  nodeName(nodeId: string): string;
  /** Only the leader announces; a standby's tick changes nothing, so it announces once it leads. */
  isLeader(): boolean;
  record(kind: "certificate.expiring", subjectId: string, params: EventParams): void;
}

/** One look at the certificates; `announced` holds `nodeId@notAfterMs` of those already told. */
export function checkCertificateExpiry(deps: CertificateExpiryDeps, announced: Set<string>): void {
  if (!deps.isLeader()) return;
  const nowMs = deps.nowMs();
  const expiring = expiringCertificates(
    deps.certificates.newestExpiryByNode(),
    nowMs,
    deps.warnBeforeMs,
  );
  const current = new Set<string>();
  for (const { nodeId, notAfterMs } of expiring) {
    const key = `${nodeId}@${notAfterMs}`;
    current.add(key);
    if (announced.has(key)) continue;
    announced.add(key);
    deps.record("certificate.expiring", nodeId, {
      node: deps.nodeName(nodeId),
      expiresAt: new Date(notAfterMs).toISOString(),
      daysLeft: Math.max(0, Math.floor((notAfterMs - nowMs) / 86_400_000)),
    });
  }
  // A certificate stops expiring only by being renewed or revoked, and never comes back.
  for (const key of announced) if (!current.has(key)) announced.delete(key);
}

export function startCertificateExpiryWatch(deps: CertificateExpiryDeps): { stop(): void } {
  const announced = new Set<string>();
  const tick = () => checkCertificateExpiry(deps, announced);
  tick();
  const timer = setInterval(tick, CERTIFICATE_CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
