// A real Samba Active Directory domain controller (Debian's samba 4.17) for the AD-specific parts
// of LDAP sign-in that OpenLDAP cannot show: the in-chain matching rule, memberOf holding direct
// groups only, userPrincipalName, and the bind error sub-codes (`data 52e`, `533`, `773`, …).
//
// Everything lives in one temp dir: `samba-tool domain provision --targetdir` (about 10 s), then
// an smb.conf written here that keeps pid files, sockets, logs and state inside it too and runs
// only the `ldap` service. Users, groups and memberships are made offline before the start (one
// Python process using Samba's SamDB, as samba-tool does), so the DC is ready when LDAPS answers.
//
// Samba's LDAP ports are fixed (389 and 636), so each DC gets its own loopback address
// (127.77.x.y/32 added to `lo`; `ip addr add` fails when another run holds it, which makes the
// address a lock) and `bind interfaces only`. That needs root (CAP_NET_ADMIN and the low ports),
// as Samba itself does. TLS uses a CA made here with a server certificate for that address, so
// clients verify it with the CA PEM instead of turning verification off.
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { connect as tlsConnect } from "node:tls";
import { join } from "node:path";
import { promisify } from "node:util";
import { registerCleanup } from "./cleanup-registry.ts";
import { spawnProcess, type SpawnedProcess } from "./spawn-process.ts";
import { tempDir } from "./temp-dir.ts";
import { waitFor } from "./wait-for.ts";

const execFileAsync = promisify(execFile);
const SAMBA = "/usr/sbin/samba";
const SAMBA_TOOL = "/usr/bin/samba-tool";
const IP = "/usr/sbin/ip";
// Debian's Python, where python3-samba lives (not whatever python3 comes first on PATH).
const PYTHON = "/usr/bin/python3";
const ADDRESS_ATTEMPTS_MAX = 20;

export interface SambaUser {
  /** sAMAccountName, also the CN (CN=<name>,CN=Users,<base DN>). */
  name: string;
  /** Must meet AD's default complexity rules (three of upper, lower, digit, symbol; 7+ long). */
  password: string;
  givenName?: string;
  surname?: string;
  mail?: string;
  /** userAccountControl ACCOUNTDISABLE: a right password gets `data 533`. */
  disabled?: boolean;
  /** pwdLastSet = 0: a right password gets `data 773`. */
  mustChangePassword?: boolean;
  /** accountExpires = now: a right password gets `data 701`. */
  expired?: boolean;
  /**
   * Wrong passwords before this account locks (`data 775`), through a fine-grained password
   * policy of its own, so other accounts never lock however often tests get them wrong.
   */
  lockoutThreshold?: number;
}

export interface SambaGroup {
  /** sAMAccountName and CN (CN=<name>,CN=Users,<base DN>). */
  name: string;
  /** User or group names; groups must be listed before the groups that hold them. */
  members: string[];
}

export interface StartSambaDcOptions {
  /** DNS realm, `LLMGW.TEST` unless given; the base DN follows from it. */
  realm?: string;
  users?: SambaUser[];
  groups?: SambaGroup[];
}

export interface SambaDc {
  /** The loopback address the DC alone listens on, e.g. `127.77.3.41`. */
  address: string;
  /** `ldaps://<address>` (port 636). */
  ldapsUrl: string;
  /** `ldap://<address>` (port 389; StartTLS offered, simple binds refused without TLS). */
  ldapUrl: string;
  /** PEM of the CA that signed the DC's certificate (subjectAltName IP:<address>). */
  caPem: string;
  realm: string;
  /** `DC=llmgw,DC=test` for realm LLMGW.TEST. */
  baseDn: string;
  adminDn: string;
  adminPassword: string;
  /** CN=<name>,CN=Users,<base DN> — where samba-tool puts users and groups. */
  dnOf(name: string): string;
  /** Runs samba-tool against this DC's smb.conf (and so its sam.ldb); answers its output. */
  tool(...args: string[]): Promise<string>;
  /** Samba's log so far. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Runs a command to the end in its own registered process group, so a test that times out
 * does not leave a minutes-long provision running; answers its output (stdout and stderr).
 */
async function run(command: string, args: string[], cwd?: string): Promise<string> {
  const child = spawnProcess(command, args, { name: command.split("/").pop(), cwd });
  const { code, signal } = await child.exited;
  await child.stop();
  if (code !== 0)
    throw new Error(
      `${command} ${args.join(" ")} failed (${signal ?? `exit ${code}`}): ${child.output().trim()}`,
    );
  return child.output();
}

// Users, groups and memberships in one Python process through Samba's own SamDB (what samba-tool
// user create / group add / addmembers / user disable / setexpiry call): one samba-tool process
// per step costs about a CPU second each, which a loaded test machine turns into minutes.
const MAKE_ACCOUNTS_PY = `
import json, sys
from samba.param import LoadParm
from samba.auth import system_session
from samba.samdb import SamDB
conf, spec = sys.argv[1], json.loads(sys.argv[2])
lp = LoadParm()
lp.load(conf)
samdb = SamDB(url=lp.private_path("sam.ldb"), session_info=system_session(), lp=lp)
for u in spec["users"]:
    samdb.newuser(u["name"], u["password"], givenname=u.get("givenName"),
                  surname=u.get("surname"), mailaddress=u.get("mail"), useusernameascn=True,
                  force_password_change_at_next_login_req=bool(u.get("mustChangePassword")))
    search = "(sAMAccountName=%s)" % u["name"]
    if u.get("disabled"):
        samdb.disable_account(search)
    if u.get("expired"):
        samdb.setexpiry(search, 0, no_expiry_req=False)
for g in spec["groups"]:
    samdb.newgroup(g["name"])
    if g["members"]:
        samdb.add_remove_group_members(g["name"], g["members"], add_members_operation=True)
`;

/** Adds a free 127.77.x.y/32 to lo; removed by the returned function or the cleanup registry. */
async function claimLoopbackAddress(): Promise<{ address: string; release(): Promise<void> }> {
  for (let attempt = 1; ; attempt += 1) {
    const address = `127.77.${1 + Math.floor(Math.random() * 254)}.${1 + Math.floor(Math.random() * 254)}`;
    try {
      await execFileAsync(IP, ["addr", "add", `${address}/32`, "dev", "lo"]);
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? "";
      if (/File exists/i.test(stderr) && attempt < ADDRESS_ATTEMPTS_MAX) continue;
      throw new Error(`startSambaDc: could not add ${address}/32 to lo: ${stderr.trim()}`);
    }
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      handle.unregister();
      await execFileAsync(IP, ["addr", "del", `${address}/32`, "dev", "lo"]).catch(() => {});
    };
    const handle = registerCleanup({
      name: `loopback address ${address}`,
      stop: release,
      killNow: () => {
        try {
          execFileSync(IP, ["addr", "del", `${address}/32`, "dev", "lo"], { stdio: "ignore" });
        } catch {
          // Exit-time cleanup is best effort.
        }
      },
    });
    return { address, release };
  }
}

async function makeCertificates(dir: string, address: string): Promise<void> {
  const days = ["-days", "2"];
  await run(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem"]
      .concat(days)
      .concat(["-subj", "/CN=llmgw test Samba CA"]),
    dir,
  );
  await run(
    "openssl",
    ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr"].concat([
      "-subj",
      `/CN=${address}`,
    ]),
    dir,
  );
  await writeFile(
    join(dir, "server.ext"),
    `subjectAltName=IP:${address}\nbasicConstraints=CA:FALSE\n` +
      "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
  );
  await run(
    "openssl",
    ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial"]
      .concat(["-out", "server.pem", "-extfile", "server.ext"])
      .concat(days),
    dir,
  );
  // Samba refuses a private key that others can read.
  await chmod(join(dir, "server.key"), 0o600);
}

function smbConf(dir: string, address: string, realm: string, workgroup: string): string {
  const d = (sub: string) => join(dir, sub);
  return [
    "[global]",
    "netbios name = DC1",
    `workgroup = ${workgroup}`,
    `realm = ${realm}`,
    "server role = active directory domain controller",
    // Only what LDAP sign-in needs: no SMB, RPC, Kerberos, DNS or NetBIOS.
    "server services = ldap",
    `interfaces = ${address}`,
    "bind interfaces only = yes",
    `private dir = ${d("private")}`,
    `lock directory = ${dir}`,
    `state directory = ${d("state")}`,
    `cache directory = ${d("cache")}`,
    `binddns dir = ${d("bind-dns")}`,
    `pid directory = ${d("run")}`,
    `ncalrpc dir = ${d("run/ncalrpc")}`,
    `winbindd socket directory = ${d("run/winbindd")}`,
    `ntp signd socket directory = ${d("run/ntp_signd")}`,
    `log file = ${d("log.%m")}`,
    "tls enabled = yes",
    `tls keyfile = ${d("server.key")}`,
    `tls certfile = ${d("server.pem")}`,
    `tls cafile = ${d("ca.pem")}`,
    "",
  ].join("\n");
}

/** Resolves once a TLS handshake with `address`:636 verifies against `caPem`. */
function ldapsAnswers(address: string, caPem: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: address, port: 636, ca: [caPem], timeout: 2_000 }, () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", reject);
    socket.once("timeout", () => {
      socket.destroy();
      reject(new Error("TLS handshake timed out"));
    });
  });
}

/**
 * Why this machine cannot run a Samba DC (no Samba, not root, or no CAP_NET_ADMIN to add a
 * loopback address), or null when it can. The issue asks for Samba "where the machine allows it";
 * a suite that cannot run says so by name instead of failing on the machine.
 */
export function sambaDcUnavailable(): string | null {
  for (const binary of [SAMBA, SAMBA_TOOL, IP, PYTHON])
    if (!existsSync(binary)) return `${binary} is not installed (Debian's samba-ad-dc, iproute2)`;
  if (process.getuid?.() !== 0) return "Samba's DC needs root (LDAP ports 389/636)";
  const probe = "127.77.255.254/32";
  try {
    execFileSync(IP, ["addr", "add", probe, "dev", "lo"], { stdio: "pipe" });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "");
    // Another run holding the probe address proves the capability too.
    if (!/File exists/i.test(stderr))
      return `cannot add a loopback address for the DC (${stderr.trim() || "ip addr add failed"})`;
    return null;
  }
  execFileSync(IP, ["addr", "del", probe, "dev", "lo"], { stdio: "pipe" });
  return null;
}

/** Provisions and starts a throwaway AD DC; stopped by stop() or the cleanup registry. */
export async function startSambaDc(options: StartSambaDcOptions = {}): Promise<SambaDc> {
  for (const binary of [SAMBA, SAMBA_TOOL, IP, PYTHON])
    if (!existsSync(binary))
      throw new Error(
        `startSambaDc: ${binary} not found; install Debian's Samba AD DC ` +
          "(DEBIAN_FRONTEND=noninteractive apt-get install -y samba samba-ad-dc iproute2)",
      );
  if (process.getuid?.() !== 0)
    throw new Error(
      "startSambaDc: needs root, as Samba does (LDAP ports 389/636 and a loopback address of its " +
        "own); run the tests as root",
    );
  const realm = (options.realm ?? "LLMGW.TEST").toUpperCase();
  const [firstLabel = realm] = realm.split(".");
  const workgroup = firstLabel.slice(0, 15);
  const baseDn = realm
    .toLowerCase()
    .split(".")
    .map((part) => `DC=${part}`)
    .join(",");
  const adminPassword = "Samba-Admin-pw-4711";
  const dir = await tempDir("samba-dc");
  const claimed = await claimLoopbackAddress();
  const { address } = claimed;
  let samba: SpawnedProcess | null = null;
  try {
    await makeCertificates(dir.path, address);
    for (const sub of ["run", "cache", "etc"])
      await mkdir(join(dir.path, sub), { recursive: true });
    // An empty config, so provision does not read the host's /etc/samba/smb.conf.
    const empty = join(dir.path, "etc", "provision.conf");
    await writeFile(empty, "");
    await run(SAMBA_TOOL, [
      "domain",
      "provision",
      `--configfile=${empty}`,
      `--targetdir=${dir.path}`,
      `--realm=${realm}`,
      `--domain=${workgroup}`,
      "--server-role=dc",
      "--dns-backend=NONE",
      "--host-name=dc1",
      `--adminpass=${adminPassword}`,
    ]);
    const conf = join(dir.path, "etc", "smb.conf");
    await writeFile(conf, smbConf(dir.path, address, realm, workgroup));
    const tool = (...args: string[]) => run(SAMBA_TOOL, [...args, `--configfile=${conf}`]);

    const users = options.users ?? [];
    const script = join(dir.path, "make-accounts.py");
    await writeFile(script, MAKE_ACCOUNTS_PY);
    await run(PYTHON, [script, conf, JSON.stringify({ users, groups: options.groups ?? [] })]);
    for (const user of users.filter((u) => u.lockoutThreshold)) {
      const pso = `lockout-${user.name}`;
      await tool(
        "domain",
        "passwordsettings",
        "pso",
        "create",
        pso,
        "1",
        `--account-lockout-threshold=${user.lockoutThreshold}`,
        "--account-lockout-duration=30",
        "--reset-account-lockout-after=30",
      );
      await tool("domain", "passwordsettings", "pso", "apply", pso, user.name);
    }

    // --foreground without -i: -i would exit when stdin (here /dev/null) closes. --no-process-group
    // keeps samba in the group spawnProcess made, so stop() reaches it.
    const child = spawnProcess(
      SAMBA,
      ["--foreground", "--no-process-group", "--debug-stdout", "-M", "single", "-s", conf],
      { name: "samba", cwd: dir.path },
    );
    samba = child;
    const caPem = await readFile(join(dir.path, "ca.pem"), "utf8");
    await waitFor(
      async () => {
        if (child.child.exitCode !== null || child.child.signalCode !== null)
          throw new Error(`samba exited:\n${child.output()}`);
        return ldapsAnswers(address, caPem);
      },
      { what: `Samba LDAPS on ${address}:636`, timeoutMs: 90_000, intervalMs: 250 },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${child.output()}`);
    });

    const running = child;
    return {
      address,
      ldapsUrl: `ldaps://${address}`,
      ldapUrl: `ldap://${address}`,
      caPem,
      realm,
      baseDn,
      adminDn: `CN=Administrator,CN=Users,${baseDn}`,
      adminPassword,
      dnOf: (name) => `CN=${name},CN=Users,${baseDn}`,
      tool,
      log: () => running.output(),
      async stop() {
        await running.stop();
        await claimed.release();
        await dir.remove();
      },
    };
  } catch (error) {
    await samba?.stop();
    await claimed.release();
    await dir.remove();
    throw error;
  }
}
