// What a release's bin/llmgw hands to the process it starts, read without loading the rest of this
// package (the CLI calls it before every command, `llmgw ctl` included).
export { allocatorInUse, type Allocator } from "./allocator";
export { takeLauncherPreload } from "./config";
