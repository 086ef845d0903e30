// Where things are inside the checkout, found from this file rather than the working directory.
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
export const WEB_DIR = fileURLToPath(new URL("../../../apps/web/", import.meta.url));
export const LLMGW_BIN = fileURLToPath(new URL("../bin/llmgw.mjs", import.meta.url));
