// `llmgw server add` on homes made here (no store is opened): what it copies, what it issues, and
// each refusal with the sentence an operator reads.
import { X509Certificate } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureServerPki } from "@llmgw/pki";
import { addControlPlane } from "./add";
import { parseAddArgs } from "./config";
import { formatSettingsFile, readSettingsFile } from "./settings-file";

const PG_URL = "postgres://llmgw:secret@db.example:5432/llmgw";
const MASTER_KEY = `${Buffer.alloc(32, 7).toString("base64")}\n`;

async function firstHome(settings: Array<[string, string]>, withMasterKey = true) {
  const home = mkdtempSync(join(tmpdir(), "add-first-"));
  await ensureServerPki(home, { names: ["cp1.example"] });
  writeFileSync(join(home, "server.env"), formatSettingsFile(settings), { mode: 0o600 });
  if (withMasterKey) writeFileSync(join(home, "master.key"), MASTER_KEY, { mode: 0o600 });
  return home;
}

function options(from: string, home = join(mkdtempSync(join(tmpdir(), "add-new-")), "home")) {
  return parseAddArgs(
    ["--home", home, "--from", from, "--name", "cp2.example", "--address", "10.0.0.2"],
    {},
  );
}

const add = (from: string, home?: string) => addControlPlane(options(from, home), () => undefined);

describe("llmgw server add", () => {
  it("copies the CA, master key and store, and issues this machine its own certificate", async () => {
    const first = await firstHome([
      ["LLMGW_PORT", "8080"],
      ["LLMGW_METRICS_TOKEN", "a-token-of-the-first-one"],
      ["DATABASE_URL", PG_URL],
    ]);
    const opts = options(first);
    const lines: string[] = [];
    await addControlPlane(opts, (line) => lines.push(line));
    const home = opts.homeDir;
    expect(readFileSync(join(home, "pki", "ca.crt"))).toEqual(
      readFileSync(join(first, "pki", "ca.crt")),
    );
    expect(readFileSync(join(home, "master.key"), "utf8")).toBe(MASTER_KEY);
    for (const secret of ["pki/ca.key", "pki/server.key", "master.key", "server.env"])
      expect(statSync(join(home, secret)).mode & 0o077, secret).toBe(0);
    const settings = readSettingsFile(home);
    expect(settings.DATABASE_URL).toBe(PG_URL);
    expect(settings.LLMGW_AGENT_TLS_NAMES).toBe("cp2.example,10.0.0.2");
    // Only what the control planes share is carried; the first's own settings are not.
    expect(settings.LLMGW_METRICS_TOKEN).toBeUndefined();

    const ca = new X509Certificate(readFileSync(join(home, "pki", "ca.crt")));
    const cert = new X509Certificate(readFileSync(join(home, "pki", "server.crt")));
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.subjectAltName).toContain("DNS:cp2.example");
    expect(cert.subjectAltName).toContain("IP Address:10.0.0.2");
    expect(cert.subjectAltName).not.toContain("cp1.example");
    expect(cert.raw).not.toEqual(
      new X509Certificate(readFileSync(join(first, "pki", "server.crt"))).raw,
    );
    expect(existsSync(join(home, "systemd", "llmgw-server.service"))).toBe(true);
    expect(lines.join("\n")).not.toContain("password");
  });

  it("carries a master key the first home keeps as a setting", async () => {
    const key = Buffer.alloc(32, 9).toString("base64");
    const first = await firstHome(
      [
        ["DATABASE_URL", PG_URL],
        ["LLMGW_MASTER_KEY", key],
      ],
      false,
    );
    const opts = options(first);
    await addControlPlane(opts, () => undefined);
    expect(readSettingsFile(opts.homeDir).LLMGW_MASTER_KEY).toBe(key);
    expect(existsSync(join(opts.homeDir, "master.key"))).toBe(false);
  });

  it("refuses a first control plane on PGlite, pointing at migrate-store", async () => {
    const first = await firstHome([["LLMGW_PORT", "8080"]]);
    await expect(add(first)).rejects.toThrow(
      /embedded PGlite, which is one process's store.*llmgw server migrate-store --home .* --to postgres:\/\//,
    );
  });

  it("refuses a directory that is not a control plane's home", async () => {
    const notHome = mkdtempSync(join(tmpdir(), "add-not-home-"));
    await expect(add(notHome)).rejects.toThrow(/is not a control plane's home.*ca\.crt/);
  });

  it("refuses a first home whose master key was never made", async () => {
    const first = await firstHome([["DATABASE_URL", PG_URL]], false);
    await expect(add(first)).rejects.toThrow(/master\.key is missing.*start it once/);
  });

  it("never writes over a home that is already there", async () => {
    const first = await firstHome([["DATABASE_URL", PG_URL]]);
    const other = await firstHome([["DATABASE_URL", "postgres://elsewhere/db"]]);
    const before = readFileSync(join(other, "pki", "ca.key"));
    await expect(add(first, other)).rejects.toThrow(/already holds a home/);
    await expect(add(first, first)).rejects.toThrow(/already holds a home/);
    expect(readFileSync(join(other, "pki", "ca.key"))).toEqual(before);
    expect(readSettingsFile(other).DATABASE_URL).toBe("postgres://elsewhere/db");
  });

  it("refuses an address: adding from a running control plane is not built", async () => {
    for (const address of ["https://cp1.example:8081", "cp1.example:8081"])
      await expect(add(address)).rejects.toThrow(/is an address.*not built.*home directory/);
  });

  it("says which flag is missing", () => {
    expect(() => parseAddArgs(["--home", "/tmp/x"], {})).toThrow("--from FIRST_HOME is missing");
    expect(() => parseAddArgs(["--from", "/tmp/x"], {})).toThrow("--home DIR is missing");
  });
});
