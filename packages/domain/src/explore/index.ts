// The explorer: what fits this fleet now, model by model (pure; the server gathers the fleet).
export type {
  ExploreCpuOption,
  ExploreGpuOption,
  ExploreModel,
  ExploreNode,
  GpuVerdict,
} from "./types";
export { exploreModel, type ExploreEntry } from "./explore";
export { CPU_DECODE_EFFICIENCY, cpuTokensPerSecond, activeWeightBytes } from "./cpu-speed";
export { knownConfigFor } from "./known-configs";
