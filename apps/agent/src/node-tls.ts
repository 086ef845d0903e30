// The node's TLS files in its data directory: `pki/ca.crt` (the cluster CA, the only trust
// anchor), `pki/node.crt` (its certificate, CN = its node id) and `pki/node.key` (0600; made here
// and never sent anywhere), plus `servers`, the control plane addresses it joined, so a joined
// agent needs no --server. Writes go to a temporary file and are renamed into place, so a reader
// never sees half a certificate and a crash never leaves a key without its certificate.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface NodeTls {
  ca: string;
  cert: string;
  key: string;
}

export function nodeTlsPaths(dataDir: string) {
  const dir = join(dataDir, "pki");
  return {
    dir,
    ca: join(dir, "ca.crt"),
    cert: join(dir, "node.crt"),
    key: join(dir, "node.key"),
    servers: join(dataDir, "servers"),
  };
}

/** The node's CA, certificate and key, or null when it has not joined yet. */
export function loadNodeTls(dataDir: string): NodeTls | null {
  const paths = nodeTlsPaths(dataDir);
  if (![paths.ca, paths.cert, paths.key].every((path) => existsSync(path))) return null;
  return {
    ca: readFileSync(paths.ca, "utf8"),
    cert: readFileSync(paths.cert, "utf8"),
    key: readFileSync(paths.key, "utf8"),
  };
}

/** Writes the files given; the key (0600) before the certificate that goes with it. */
export function saveNodeTls(dataDir: string, files: Partial<NodeTls>): void {
  const paths = nodeTlsPaths(dataDir);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  if (files.ca !== undefined) writeAtomically(paths.ca, files.ca, 0o644);
  if (files.key !== undefined) writeAtomically(paths.key, files.key, 0o600);
  if (files.cert !== undefined) writeAtomically(paths.cert, files.cert, 0o644);
}

export function saveServerUrls(dataDir: string, urls: readonly string[]): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeAtomically(nodeTlsPaths(dataDir).servers, `${urls.join("\n")}\n`, 0o644);
}

/** The addresses remembered at join, or none. */
export function loadServerUrls(
  dataDir: string,
  readTextFile: (path: string) => string = (path) => readFileSync(path, "utf8"),
): string[] {
  try {
    return readTextFile(nodeTlsPaths(dataDir).servers)
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
  } catch {
    return [];
  }
}

function writeAtomically(path: string, text: string, mode: number): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode });
  renameSync(temporary, path);
}
