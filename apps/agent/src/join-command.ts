// `llmgw agent join wss://HOST:PORT --token-file F --ca-sha256 H`, and the same join done by
// `llmgw agent` itself on a first boot that was given a token and a pin (dev, tests, systemd).
import { readCertificate } from "@llmgw/pki";
import { ConfigError, type AgentConfig } from "./config";
import { joinCluster, JoinError } from "./join";
import type { Logger } from "./log-ring";
import { loadNodeTls, nodeTlsPaths } from "./node-tls";

const JOIN_USAGE =
  "usage: llmgw agent join wss://HOST:PORT [--token-file FILE | --token T] --ca-sha256 H [--data-dir D] [--name N]";

/** Runs the join subcommand; argv is what follows `join`. */
export async function runJoinCommand(
  argv: readonly string[],
  loadConfig: (argv: string[]) => AgentConfig,
  print: (line: string) => void,
): Promise<void> {
  const urls = argv.filter((arg, i) => !arg.startsWith("-") && !argv[i - 1]?.startsWith("--"));
  const flags = argv.filter((arg) => !urls.includes(arg));
  if (urls.length === 0)
    throw new ConfigError(`name the control plane's agent address; ${JOIN_USAGE}`);
  const config = loadConfig([...urls.flatMap((url) => ["--server", url]), ...flags]);
  if (config.joinToken === "")
    throw new ConfigError(
      `a join token is required (--token-file, --token or LLMGW_JOIN_TOKEN); ${JOIN_USAGE}`,
    );
  if (config.caSha256 === "")
    throw new ConfigError(
      `the CA fingerprint is required (--ca-sha256 or LLMGW_CA_SHA256); ${JOIN_USAGE}`,
    );
  const joined = await join(config);
  const paths = nodeTlsPaths(config.dataDir);
  print(
    `joined as node ${joined.nodeId} (${config.nodeName}); certificate in ${paths.cert}, key in ${paths.key} (0600)`,
  );
  print(
    `next: llmgw agent --data-dir ${config.dataDir}   (it connects to ${config.serverUrls.join(", ")} with this certificate; no token needed)`,
  );
}

/**
 * Makes sure the node holds a certificate before it connects: joins when it holds none and was
 * given a token and a pin; otherwise says how to join. Answers the certificate's lifetime.
 */
export async function ensureJoined(config: AgentConfig, logger: Logger): Promise<number> {
  let tls = loadNodeTls(config.dataDir);
  if (!tls) {
    if (config.joinToken === "" || config.caSha256 === "")
      throw new ConfigError(
        `this node holds no certificate in ${nodeTlsPaths(config.dataDir).dir}: join it first with llmgw agent join wss://HOST:PORT --token-file FILE --ca-sha256 H (or give LLMGW_JOIN_TOKEN and LLMGW_CA_SHA256)`,
      );
    const joined = await join(config);
    logger.info("joined", { id: joined.nodeId, ca: joined.caSha256 });
    tls = loadNodeTls(config.dataDir);
  }
  const facts = await readCertificate(tls?.cert ?? "");
  return facts.notAfterMs - facts.notBeforeMs;
}

async function join(config: AgentConfig) {
  let lastError: unknown;
  for (const serverUrl of config.serverUrls) {
    try {
      return await joinCluster({
        serverUrl,
        serverUrls: config.serverUrls,
        token: config.joinToken,
        caSha256: config.caSha256,
        dataDir: config.dataDir,
        nodeName: config.nodeName,
      });
    } catch (error) {
      // A wrong pin or a refused token is the same answer from every address: stop at once.
      if (error instanceof JoinError && !/cannot fetch|request failed/.test(error.message))
        throw error;
      lastError = error;
    }
  }
  throw lastError instanceof Error ? lastError : new JoinError("no control plane address to join");
}
