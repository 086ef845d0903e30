import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { X509Certificate } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { caFingerprint } from "./certificates";
import { ensureServerPki } from "./server-pki";

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), "llmgw-pki-"));
  homes.push(home);
  return home;
}

describe("ensureServerPki", () => {
  it("makes the CA and the server certificate, keys 0600, with the default and given SANs", async () => {
    const home = newHome();
    const pki = await ensureServerPki(home, { names: ["gw.example"], addresses: ["10.0.0.5"] });
    expect(statSync(pki.caKeyPath).mode & 0o777).toBe(0o600);
    expect(statSync(pki.keyPath).mode & 0o777).toBe(0o600);
    expect(pki.caFingerprint).toBe(caFingerprint(readFileSync(pki.caCertPath, "utf8")));
    const cert = new X509Certificate(readFileSync(pki.certPath, "utf8"));
    expect(cert.checkIssued(new X509Certificate(readFileSync(pki.caCertPath, "utf8")))).toBe(true);
    for (const san of [
      "DNS:localhost",
      "DNS:gw.example",
      "IP Address:127.0.0.1",
      "IP Address:10.0.0.5",
    ])
      expect(cert.subjectAltName).toContain(san);
    expect(cert.checkHost("gw.example")).toBe("gw.example");
  });

  it("never replaces an existing CA, and reissues a missing server certificate from it", async () => {
    const home = newHome();
    const first = await ensureServerPki(home);
    const caBefore = readFileSync(first.caCertPath, "utf8");
    const serverBefore = readFileSync(first.certPath, "utf8");
    rmSync(first.certPath);
    const second = await ensureServerPki(home);
    expect(readFileSync(second.caCertPath, "utf8")).toBe(caBefore);
    expect(second.caFingerprint).toBe(first.caFingerprint);
    const serverAfter = readFileSync(second.certPath, "utf8");
    expect(serverAfter).not.toBe(serverBefore);
    expect(new X509Certificate(serverAfter).checkIssued(new X509Certificate(caBefore))).toBe(true);
  });

  it("refuses to make a new CA when only half of the old one is there", async () => {
    const home = newHome();
    const first = await ensureServerPki(home);
    rmSync(first.caKeyPath);
    await expect(ensureServerPki(home)).rejects.toThrow(/ca\.key is missing.*restore it/);
  });
});
