// Which malloc this process runs on. A release's bin/llmgw preloads jemalloc when the system has
// it (Debian's libjemalloc2), because glibc's malloc keeps the memory a long-running server frees
// (measured in docs/benchmarks.md, "Reading the memory run"); `LLMGW_MALLOC=system` keeps glibc's.
// The launcher names the library it preloaded in LLMGW_MALLOC_LIB, and llmgw takes it back out of
// LD_PRELOAD at start (takeLauncherPreload, in config.ts), so the engines and tools it starts run
// on their own allocator. It also sets jemalloc's MALLOC_CONF (freed pages given back at once)
// unless the operator set one, named in LLMGW_MALLOC_CONF and taken out the same way.
import { readFileSync } from "node:fs";

export type Allocator = "jemalloc" | "system";

/** Reads this process's own mappings: jemalloc when its library is mapped, else the system's. */
export function allocatorInUse(mapsPath = "/proc/self/maps"): Allocator {
  let maps: string;
  try {
    maps = readFileSync(mapsPath, "utf8");
  } catch {
    return "system";
  }
  return /\/libjemalloc\.so[.\d]*$/m.test(maps) ? "jemalloc" : "system";
}
