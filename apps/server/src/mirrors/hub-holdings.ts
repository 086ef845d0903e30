// Whether a mirror holds a hub repository the catalog loads (docs/mirrors.md): its file list at
// api/models/ORG/NAME/revision/main reads as one, and every file it lists answers a HEAD at
// ORG/NAME/resolve/main/FILE. What the node would fetch is what is looked at.
import {
  HUB_LIST_MAX_BYTES,
  hubFilePath,
  hubListPath,
  hubRepoOf,
  hubReposInCatalog,
  isInHubRepo,
  mirrorFileUrl,
  parseHubFileList,
  type ModelDefinition,
} from "@llmgw/domain";
import { request, type Agent } from "undici";

/** More files than a model repository holds; past it, the rest are not looked up. */
const FILES_PER_REPO_MAX = 200;

export interface HubLookup {
  agent: Agent;
  timeoutMs: number;
  head(url: string): Promise<number>;
}

/** `hf:org/name` → whether the mirror at `baseUrl` holds the whole repository. */
export async function holdsHubRepo(
  baseUrl: string,
  key: string,
  lookup: HubLookup,
): Promise<boolean> {
  const repo = hubRepoOf(key);
  if (repo === undefined) return false;
  const answer = await request(mirrorFileUrl(baseUrl, hubListPath(repo)), {
    dispatcher: lookup.agent,
    signal: AbortSignal.timeout(lookup.timeoutMs),
  });
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    return false;
  }
  const text = await answer.body.text();
  if (text.length > HUB_LIST_MAX_BYTES) return false;
  const parsed = parseHubFileList(text);
  if ("error" in parsed) return false;
  for (const file of parsed.files.slice(0, FILES_PER_REPO_MAX)) {
    const status = await lookup.head(mirrorFileUrl(baseUrl, hubFilePath(repo, file.path)));
    if (status !== 200) return false;
  }
  return true;
}

/** The catalog models (and `MODEL:ADAPTER`s) loading the hub repository a mirror path lies in. */
export function hubUsersOf(path: string, models: readonly ModelDefinition[]): string[] | undefined {
  for (const [key, users] of hubReposInCatalog(models)) {
    const repo = hubRepoOf(key);
    if (repo !== undefined && isInHubRepo(path, repo)) return users;
  }
  return undefined;
}
