// Catalog: what a model definition may say, and the immutable set of them the cluster serves.
export * from "./model-definition";
export * from "./catalog";
export * from "./presets";
export { VLLM_LORA_RANKS, adapterModelName, splitAdapterModelName, type Adapter } from "./adapters";
export { checkEngineArgs, type FlagRefusal } from "./engine-flags";
export { normaliseGpuClass, parseComputeCapability, GPU_CLASS_PATTERN } from "./gpu-class";
export {
  sourceKind,
  pickleExtension,
  mirrorPathOf,
  sourceSha256Of,
  PICKLE_EXTENSIONS,
  type SourceKind,
} from "./source";
export * from "./mirrors";
export * from "./hub-mirror";
export * from "./s3-mirror";
export * from "./s3-address";
