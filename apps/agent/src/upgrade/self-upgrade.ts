// The agent's half of a rolling upgrade: on UpgradeAgent it fetches the release from the control
// plane it is connected to, checks the SHA-256 against the frame itself (not against anything the
// download says about itself), unpacks it beside the running release and swaps `current`. The
// caller answers, then the agent exits with status 75 for its supervisor to start the new release.
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { isReleaseVersion, messageOf } from "@llmgw/domain";
import type { UpgradeAgent } from "@llmgw/proto";
import {
  installOrWhyNot,
  releaseFileName,
  swapCurrent,
  unpackRelease,
  type Install,
} from "@llmgw/release";
import { downloadRelease, releaseUrl, type NodeTls } from "./download";

/** The exit status that asks the supervisor (systemd Restart=always, `llmgw dev`) for a restart. */
export const EXIT_RESTART = 75;

const RELEASE_BYTES_MAX = 1024 ** 3;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export interface UpgradeOutcome {
  ok: boolean;
  error: string;
  alreadyCurrent: boolean;
}

export interface SelfUpgradeDeps {
  runningVersion: string;
  /** The control plane this agent is connected to (`wss://host:port/agent/v1`), if registered. */
  serverUrl(): string | undefined;
  dataDir: string;
  /** i14: the node's TLS material from loadNodeTls(dataDir) once the agent port speaks TLS. */
  tls: NodeTls | undefined;
  /** The installation this process runs from, or why it cannot upgrade itself. */
  install?: () => { install: Install } | { reason: string };
  download?: typeof downloadRelease;
}

const refused = (error: string): UpgradeOutcome => ({ ok: false, error, alreadyCurrent: false });

/** Why the frame itself is wrong (a version or path that is not a release's), or null. */
function frameProblem(request: UpgradeAgent): string | null {
  if (!isReleaseVersion(request.version)) return `"${request.version}" is not a release version`;
  if (request.file !== releaseFileName(request.version)) {
    return `the file "${request.file}" is not the release file of ${request.version}`;
  }
  if (!/^[0-9a-f]{64}$/.test(request.sha256)) return "the frame's sha256 is not 64 hex digits";
  if (request.urlPath !== `/agent/v1/releases/${request.file}`) {
    return `the release is fetched from /agent/v1/releases/${request.file}, not "${request.urlPath}"`;
  }
  return null;
}

export async function selfUpgrade(
  request: UpgradeAgent,
  deps: SelfUpgradeDeps,
): Promise<UpgradeOutcome> {
  if (request.version === deps.runningVersion) return { ok: true, error: "", alreadyCurrent: true };
  const problem = frameProblem(request);
  if (problem) return refused(problem);
  const found = (deps.install ?? installOrWhyNot)();
  if ("reason" in found) return refused(`this agent cannot upgrade itself: ${found.reason}`);
  const serverUrl = deps.serverUrl();
  if (!serverUrl) return refused("this agent is not connected to a control plane to fetch from");
  const downloads = join(deps.dataDir, "downloads");
  const path = join(downloads, `${request.file}.partial`);
  try {
    await mkdir(downloads, { recursive: true, mode: 0o700 });
    const download = deps.download ?? downloadRelease;
    const got = await download(releaseUrl(serverUrl, request.urlPath), path, {
      tls: deps.tls,
      bytesMax: RELEASE_BYTES_MAX,
      timeoutMs: DOWNLOAD_TIMEOUT_MS,
    });
    if (got.sha256 !== request.sha256) {
      return refused(
        `the downloaded ${request.file} has SHA-256 ${got.sha256}, not ${request.sha256}; not installed`,
      );
    }
    await unpackRelease(path, found.install.root, request.version);
    await swapCurrent(found.install.root, request.version);
    return { ok: true, error: "", alreadyCurrent: false };
  } catch (error) {
    return refused(`upgrading to ${request.version} failed: ${messageOf(error)}`);
  } finally {
    await rm(path, { force: true });
  }
}
