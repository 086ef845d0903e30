// The version of llmgw this process runs. A release build (scripts/release.mjs) replaces
// __LLMGW_VERSION__ with the release's version through esbuild's `define`; run from a checkout, the
// version is the workspace's with "-dev", so a checkout never claims to be a release.
declare const __LLMGW_VERSION__: string | undefined;

/** The workspace version (root package.json); a test keeps the two equal. */
export const WORKSPACE_VERSION = "0.1.0";

/** True in a release's bundle, where esbuild defined the version. */
export const IS_RELEASE_BUILD = typeof __LLMGW_VERSION__ === "string";

export const LLMGW_VERSION: string =
  typeof __LLMGW_VERSION__ === "string" ? __LLMGW_VERSION__ : `${WORKSPACE_VERSION}-dev`;

/**
 * What a release version looks like (`1.2.3`, `1.2.3-rc.1`): the release files, `ctl upgrade` and
 * the upgrade API accept only these, so a version can never carry a path separator.
 */
export const RELEASE_VERSION_PATTERN = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

export function isReleaseVersion(value: string): boolean {
  return RELEASE_VERSION_PATTERN.test(value);
}
