// The server's PKI files in its home: the cluster CA and the server's certificate. What is
// missing is made; an existing CA is never replaced, because every node's certificate and every
// `--ca-sha256` pin depend on it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import {
  caFingerprint,
  createCa,
  issueServerCertificate,
  type KeyAndCertificate,
} from "./certificates";

const CA_VALID_DAYS = 3650;
const SERVER_CERT_VALID_DAYS = 825;

export interface ServerPkiPaths {
  caCertPath: string;
  caKeyPath: string;
  certPath: string;
  keyPath: string;
  caFingerprint: string;
}

export interface ServerPkiOptions {
  names?: readonly string[];
  addresses?: readonly string[];
}

export function serverPkiPaths(homeDir: string): Omit<ServerPkiPaths, "caFingerprint"> {
  const dir = join(homeDir, "pki");
  return {
    caCertPath: join(dir, "ca.crt"),
    caKeyPath: join(dir, "ca.key"),
    certPath: join(dir, "server.crt"),
    keyPath: join(dir, "server.key"),
  };
}

/** Creates `<home>/pki/{ca.crt,ca.key,server.crt,server.key}` where missing; keys are 0600. */
export async function ensureServerPki(
  homeDir: string,
  options: ServerPkiOptions = {},
): Promise<ServerPkiPaths> {
  const paths = serverPkiPaths(homeDir);
  mkdirSync(join(homeDir, "pki"), { recursive: true, mode: 0o700 });
  const ca = await ensureCa(paths);
  if (!existsSync(paths.certPath) || !existsSync(paths.keyPath)) {
    const server = await issueServerCertificate(ca, {
      names: unique(["localhost", hostname(), ...(options.names ?? [])]),
      addresses: unique(["127.0.0.1", "::1", ...(options.addresses ?? [])]),
      validDays: SERVER_CERT_VALID_DAYS,
    });
    writeFileSync(paths.keyPath, server.keyPem, { mode: 0o600 });
    writeFileSync(paths.certPath, server.certPem, { mode: 0o644 });
  }
  return { ...paths, caFingerprint: caFingerprint(ca.certPem) };
}

async function ensureCa(paths: Omit<ServerPkiPaths, "caFingerprint">): Promise<KeyAndCertificate> {
  const hasCert = existsSync(paths.caCertPath);
  const hasKey = existsSync(paths.caKeyPath);
  if (hasCert && hasKey)
    return {
      certPem: readFileSync(paths.caCertPath, "utf8"),
      keyPem: readFileSync(paths.caKeyPath, "utf8"),
    };
  if (hasCert || hasKey)
    throw new Error(
      `${hasCert ? paths.caKeyPath : paths.caCertPath} is missing beside ${hasCert ? paths.caCertPath : paths.caKeyPath}: ` +
        "restore it from a backup (a new CA would orphan every joined node)",
    );
  const ca = await createCa("llmgw cluster CA", CA_VALID_DAYS);
  // "wx": if another process made the CA meanwhile, fail rather than replace it.
  writeFileSync(paths.caKeyPath, ca.keyPem, { mode: 0o600, flag: "wx" });
  writeFileSync(paths.caCertPath, ca.certPem, { mode: 0o644, flag: "wx" });
  return ca;
}

/** Reads the CA (certificate and key) that ensureServerPki made. */
export function readServerCa(homeDir: string): KeyAndCertificate {
  const paths = serverPkiPaths(homeDir);
  return {
    certPem: readFileSync(paths.caCertPath, "utf8"),
    keyPem: readFileSync(paths.caKeyPath, "utf8"),
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v !== ""))];
}
