// `llmgw_certificate_expiry_timestamp_seconds`: when the CA, the server's certificate and each
// node's newest valid certificate expire. The server's own files are read at each scrape (so a
// replaced file shows at once); nodes' come from the in-memory book of issued certificates.
import { readFile } from "node:fs/promises";
import { Gauge, type Registry } from "prom-client";
import { readCertificate } from "@llmgw/pki";
import type { ClusterPki } from "./cluster-pki";

export function registerCertificateMetrics(
  registry: Registry,
  pki: Pick<ClusterPki, "paths" | "certificates">,
): void {
  new Gauge({
    name: "llmgw_certificate_expiry_timestamp_seconds",
    help: "When a certificate expires (Unix seconds): the cluster CA, the agent port's server certificate, and each node's newest unrevoked certificate.",
    labelNames: ["kind", "node"],
    registers: [registry],
    async collect() {
      this.reset();
      const files = [
        { kind: "ca", path: pki.paths.caCertPath },
        { kind: "server", path: pki.paths.certPath },
      ];
      for (const { kind, path } of files) {
        const facts = await readCertificate(await readFile(path, "utf8")).catch(() => null);
        if (facts) this.set({ kind, node: "" }, Math.floor(facts.notAfterMs / 1000));
      }
      for (const [node, notAfterMs] of pki.certificates.newestExpiryByNode())
        this.set({ kind: "node", node }, Math.floor(notAfterMs / 1000));
    },
  });
}
