/** The running release's folder, set by the release's `bin/llmgw`; unset when run from a checkout. */
export function releaseDirFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.LLMGW_RELEASE_DIR?.trim();
  return value === "" ? undefined : value;
}
