// Renewing the node certificate before it expires: once two thirds of its lifetime have passed
// (checked at start and on a timer), a new key and CSR go to /agent/v1/renew over mutual TLS with
// the current certificate, and the files are replaced by rename. The next connection uses them.
import { createKeyAndCsr, readCertificate } from "@llmgw/pki";
import { messageOf } from "@llmgw/domain";
import { httpsCall, refusalText } from "./https-json";
import { httpsBase } from "./join";
import type { Logger } from "./log-ring";
import { loadNodeTls, saveNodeTls } from "./node-tls";

/** Checked at least this often, so a long-lived certificate is still renewed within a day. */
const CHECK_INTERVAL_MAX_MS = 3_600_000;
const CHECK_INTERVAL_MIN_MS = 1_000;

/** When a certificate with these dates should be renewed: two thirds into its life. */
export function renewAtMs(notBeforeMs: number, notAfterMs: number): number {
  return notBeforeMs + ((notAfterMs - notBeforeMs) * 2) / 3;
}

export interface RenewalOptions {
  dataDir: string;
  serverUrls: () => readonly string[];
  logger: Logger;
  nowMs: () => number;
}

/** Renews when due; answers whether it renewed. A failure is logged and tried again later. */
async function renewIfDue(options: RenewalOptions): Promise<boolean> {
  const tls = loadNodeTls(options.dataDir);
  if (!tls) return false;
  const facts = await readCertificate(tls.cert);
  if (options.nowMs() < renewAtMs(facts.notBeforeMs, facts.notAfterMs)) return false;
  const { keyPem, csrPem } = await createKeyAndCsr(facts.subjectCn);
  for (const serverUrl of options.serverUrls()) {
    try {
      const answer = await httpsCall({
        url: `${httpsBase(serverUrl)}/agent/v1/renew`,
        method: "POST",
        body: { csr: csrPem },
        tls,
      });
      const renewed =
        answer.status === 200 ? (JSON.parse(answer.text) as { certificate?: unknown }) : null;
      if (typeof renewed?.certificate !== "string") {
        options.logger.warn("certificate renewal refused", {
          server: serverUrl,
          why: refusalText(answer),
        });
        continue;
      }
      saveNodeTls(options.dataDir, { key: keyPem, cert: renewed.certificate });
      const next = await readCertificate(renewed.certificate);
      options.logger.info("certificate renewed", {
        validUntil: new Date(next.notAfterMs).toISOString(),
      });
      return true;
    } catch (error) {
      options.logger.warn("certificate renewal failed", {
        server: serverUrl,
        why: messageOf(error),
      });
    }
  }
  return false;
}

/** Checks now and then on a timer sized to the certificate's life; answers the stop function. */
export function startRenewal(options: RenewalOptions, lifetimeMs: number): () => void {
  const intervalMs = Math.min(
    CHECK_INTERVAL_MAX_MS,
    Math.max(CHECK_INTERVAL_MIN_MS, lifetimeMs / 20),
  );
  let running = false;
  const check = () => {
    if (running) return;
    running = true;
    void renewIfDue(options).finally(() => {
      running = false;
    });
  };
  check();
  const timer = setInterval(check, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
