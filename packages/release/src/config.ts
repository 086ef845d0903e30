/** The running release's folder, set by the release's `bin/llmgw`; unset when run from a checkout. */
export function releaseDirFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.LLMGW_RELEASE_DIR?.trim();
  return value === "" ? undefined : value;
}

/**
 * Takes the library the release's launcher preloaded (named in LLMGW_MALLOC_LIB) out of
 * LD_PRELOAD, so processes llmgw starts do not inherit it; this process has it loaded already.
 * Anything else in LD_PRELOAD stays, in its order. Answers the library's path, if there was one.
 * The jemalloc options the launcher set (named in LLMGW_MALLOC_CONF) go too; an operator's own
 * MALLOC_CONF stays.
 */
export function takeLauncherPreload(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const conf = env.LLMGW_MALLOC_CONF;
  delete env.LLMGW_MALLOC_CONF;
  if (conf !== undefined && conf !== "" && env.MALLOC_CONF === conf) delete env.MALLOC_CONF;
  const library = env.LLMGW_MALLOC_LIB?.trim();
  delete env.LLMGW_MALLOC_LIB;
  if (!library) return undefined;
  const rest = (env.LD_PRELOAD ?? "")
    .split(/[:\s]+/)
    .filter((entry) => entry !== "" && entry !== library);
  if (rest.length > 0) env.LD_PRELOAD = rest.join(":");
  else delete env.LD_PRELOAD;
  return library;
}
