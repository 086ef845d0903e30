// Where things are, in a checkout or in a release (decided by @llmgw/domain/install), found from
// the code rather than the working directory.
import { INSTALL } from "@llmgw/domain/install";

export const IS_RELEASE = INSTALL.isRelease;
export const REPO_ROOT = INSTALL.rootDir;
/** The console: apps/web in a checkout, Next's standalone output in a release. */
export const WEB_DIR = INSTALL.webDir;
/** The script `llmgw dev` runs its children with, through node. */
export const LLMGW_BIN = INSTALL.entryScript;
