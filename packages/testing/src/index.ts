// @llmgw/testing owns the real pieces integration and browser tests start: a PostgreSQL 15 server,
// child processes in their own process groups, free ports, temp dirs and polling with a deadline.
// Everything started here is registered so that `cleanupAll()` (or process exit) leaves nothing behind.
export {
  cleanupAll,
  registerCleanup,
  type CleanupHandle,
  type Resource,
} from "./cleanup-registry.ts";
export {
  agentPortRequest,
  joinAs,
  nodeTlsOptions,
  type AgentPortAnswer,
  type NodeIdentity,
} from "./agent-port-client.ts";
export { withMarkedSection } from "./doc-section.ts";
export { freePort } from "./free-port.ts";
export {
  ADMIN_PASSWORD,
  cleanUpEnginesOf,
  createJoinToken,
  serverSetup,
  startAgent,
  startServer,
  type ServerHandle,
  type ServerSetup,
} from "./llmgw-fleet.ts";
export {
  enginePid,
  ensureLlamacppBuilt,
  LLAMACPP_BUILD_TIMEOUT_MS,
  LLAMACPP_ENGINE_DIR,
} from "./llamacpp.ts";
export { llmgwBin, repoRoot } from "./paths.ts";
export { autogroupNice, isProcessAlive, setAutogroupNice } from "./process-group.ts";
export {
  startPostgres,
  type PostgresServer,
  type StartPostgresOptions,
} from "./postgres-server.ts";
export {
  spawnLlmgw,
  spawnProcess,
  type ExitInfo,
  type SpawnedProcess,
  type SpawnProcessOptions,
} from "./spawn-process.ts";
export { rssSlope } from "./rss-slope.ts";
export { tempDir, type TempDir } from "./temp-dir.ts";
export { waitFor, type WaitForOptions } from "./wait-for.ts";
export {
  forgeIdToken,
  startEntraProvider,
  unsignedIdToken,
  type EntraProvider,
  type EntraUser,
} from "./entra-provider.ts";
export { startSlapd, type SlapdServer, type StartSlapdOptions } from "./slapd-server.ts";
export {
  sambaDcUnavailable,
  startSambaDc,
  type SambaDc,
  type SambaGroup,
  type SambaUser,
  type StartSambaDcOptions,
} from "./samba-dc.ts";
export {
  consoleDirectory,
  directoryTestData,
  groupDn,
  personDn,
  signInDirectory,
  type DirectoryTestData,
  type DirectoryTestGroup,
  type DirectoryTestPerson,
} from "./ldap-directory-data.ts";
export { TINY_LLAMA, tinyLlamaGguf, type LlamaShape } from "./tiny-llama-gguf.ts";
export { TINY_LORA, tinyLlamaLoraGguf } from "./tiny-llama-lora-gguf.ts";
export { checkpointWorkflow } from "./comfy-workflow.ts";
export { startCpuAgent } from "./cpu-agent.ts";
export {
  startOtlpReceiver,
  otlpAttributes,
  type OtlpReceiver,
  type OtlpSpan,
} from "./otlp-receiver.ts";
