// A real OpenLDAP slapd (Debian's) for Active Directory sign-in tests, in a fresh temp dir on free
// loopback ports: one ldap:// (StartTLS offered) and one ldaps://, both with a server certificate
// from a CA made here with openssl. The mdb database is loaded with slapadd before the start; the
// dynlist overlay fills `memberOf` on searches, following nested groupOfNames (`*`), which is the
// closest OpenLDAP gets to AD's memberOf. It does NOT know AD's in-chain matching rule
// (1.2.840.113556.1.4.1941): a filter using it matches nothing, silently. slapd runs with
// `-d stats`, so a test can read every BIND it saw in `log()`. A DN with an empty password binds
// anonymously (`allow bind_anon_dn`), as on many AD domain controllers.
// Unlike initdb, slapd runs as root without complaint and the ports are above 1024, so it runs as
// whoever runs the tests (no runuser needed).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { messageOf } from "@llmgw/domain";
import { freePort } from "./free-port.ts";
import { spawnProcess, type SpawnedProcess } from "./spawn-process.ts";
import { tempDir } from "./temp-dir.ts";

const execFileAsync = promisify(execFile);
const SLAPD = "/usr/sbin/slapd";
const SLAPADD = "/usr/sbin/slapadd";
const START_ATTEMPTS_MAX = 3;

export interface SlapdServer {
  /** `ldap://127.0.0.1:PORT` (plain, StartTLS offered). */
  ldapUrl: string;
  /** `ldaps://127.0.0.1:PORT`. */
  ldapsUrl: string;
  /** PEM of the CA that signed the server certificate. */
  caPem: string;
  /** `dc=example,dc=test` unless given. */
  suffix: string;
  /** The rootdn and its password (full rights). */
  adminDn: string;
  adminPassword: string;
  /** slapd's stats log so far (connections, BINDs, SEARCHes). */
  log(): string;
  stop(): Promise<void>;
}

export interface StartSlapdOptions {
  /** LDIF loaded after the suffix entry (which is made here). */
  ldif: string;
  suffix?: string;
}

async function run(command: string, args: string[], cwd: string): Promise<void> {
  try {
    await execFileAsync(command, args, { cwd });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${stderr?.trim() || message}`);
  }
}

async function makeCertificates(dir: string): Promise<void> {
  await run(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem"].concat(
      ["-days", "2", "-subj", "/CN=llmgw test LDAP CA"],
    ),
    dir,
  );
  await run(
    "openssl",
    ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr"].concat([
      "-subj",
      "/CN=127.0.0.1",
    ]),
    dir,
  );
  await writeFile(
    join(dir, "server.ext"),
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n" +
      "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
  );
  await run(
    "openssl",
    ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key"].concat([
      "-CAcreateserial",
      "-out",
      "server.pem",
      "-days",
      "2",
      "-extfile",
      "server.ext",
    ]),
    dir,
  );
}

function slapdConf(dir: string, suffix: string, adminDn: string, adminPassword: string): string {
  return [
    "include /etc/ldap/schema/core.schema",
    "include /etc/ldap/schema/cosine.schema",
    "include /etc/ldap/schema/inetorgperson.schema",
    "include /etc/ldap/schema/dyngroup.schema",
    "modulepath /usr/lib/ldap",
    "moduleload back_mdb",
    "moduleload dynlist",
    `pidfile ${join(dir, "slapd.pid")}`,
    // Like many AD domain controllers, accept a DN with an empty password as an anonymous bind,
    // so the tests can show that the sign-in refuses empty passwords itself.
    "allow bind_anon_dn",
    `TLSCACertificateFile ${join(dir, "ca.pem")}`,
    `TLSCertificateFile ${join(dir, "server.pem")}`,
    `TLSCertificateKeyFile ${join(dir, "server.key")}`,
    "database mdb",
    `suffix "${suffix}"`,
    `rootdn "${adminDn}"`,
    `rootpw ${adminPassword}`,
    `directory ${join(dir, "db")}`,
    "maxsize 33554432",
    "overlay dynlist",
    "dynlist-attrset groupOfURLs memberURL member+memberOf@groupOfNames*",
    "access to attrs=userPassword by self write by anonymous auth by * none",
    "access to * by users read by * none",
    "",
  ].join("\n");
}

/** Starts slapd loaded with `options.ldif`; stopped by stop() or the cleanup registry. */
export async function startSlapd(options: StartSlapdOptions): Promise<SlapdServer> {
  for (const binary of [SLAPD, SLAPADD])
    if (!existsSync(binary))
      throw new Error(
        `startSlapd: ${binary} not found; install Debian's slapd and ldap-utils ` +
          "(DEBIAN_FRONTEND=noninteractive apt-get install -y slapd ldap-utils)",
      );
  const suffix = options.suffix ?? "dc=example,dc=test";
  const adminDn = `cn=admin,${suffix}`;
  const adminPassword = "slapd-admin-password";
  const dir = await tempDir("slapd");
  await mkdir(join(dir.path, "db"));
  await makeCertificates(dir.path);
  const conf = join(dir.path, "slapd.conf");
  await writeFile(conf, slapdConf(dir.path, suffix, adminDn, adminPassword));
  const dc = /^dc=([^,]+)/.exec(suffix)?.[1] ?? "example";
  const base = `dn: ${suffix}\nobjectClass: dcObject\nobjectClass: organization\no: ${dc}\ndc: ${dc}\n\n`;
  await writeFile(join(dir.path, "data.ldif"), base + options.ldif.trim() + "\n");
  await run(SLAPADD, ["-f", conf, "-l", join(dir.path, "data.ldif")], dir.path);

  let slapd: SpawnedProcess | null = null;
  let ports: [number, number] = [0, 0];
  for (let attempt = 1; !slapd; attempt += 1) {
    ports = [await freePort(), await freePort()];
    const urls = `ldap://127.0.0.1:${ports[0]}/ ldaps://127.0.0.1:${ports[1]}/`;
    // -d stats keeps slapd in the foreground and logs each operation on stderr.
    const child = spawnProcess(SLAPD, ["-d", "stats", "-f", conf, "-h", urls], {
      name: "slapd",
      cwd: dir.path,
    });
    try {
      await child.waitForOutput(/slapd starting/, 15_000);
      slapd = child;
    } catch (error) {
      await child.stop();
      if (attempt >= START_ATTEMPTS_MAX)
        throw new Error(`slapd did not start: ${messageOf(error)}\n${child.output()}`);
    }
  }
  const running = slapd;
  const caPem = await readFile(join(dir.path, "ca.pem"), "utf8");
  return {
    ldapUrl: `ldap://127.0.0.1:${ports[0]}`,
    ldapsUrl: `ldaps://127.0.0.1:${ports[1]}`,
    caPem,
    suffix,
    adminDn,
    adminPassword,
    log: () => running.output(),
    async stop() {
      await running.stop();
      await dir.remove();
    },
  };
}
