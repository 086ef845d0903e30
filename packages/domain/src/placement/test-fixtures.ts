// Builders for placement tests: a node or request with sensible defaults and only what a test changes.
import type { PlacementCard, PlacementNode, PlacementRequest } from "./types";

export function cards(
  count: number,
  gpuClass = "H100-80G",
  memoryGb = 80,
  computeCapability = 9.0,
): PlacementCard[] {
  return Array.from({ length: count }, (_, index) => ({
    index,
    gpuClass,
    memoryGb,
    computeCapability,
    isHealthy: true,
  }));
}

export function node(id: string, overrides: Partial<PlacementNode> = {}): PlacementNode {
  return {
    id,
    name: id,
    isReachable: true,
    labels: {},
    cards: cards(8),
    memoryGbTotal: 512,
    cpuCoresTotal: 64,
    diskGbFree: 1_000,
    ...overrides,
  };
}

export function request(overrides: Partial<PlacementRequest> = {}): PlacementRequest {
  return {
    replicaId: "qwen-7b/r1",
    model: "qwen-7b",
    profile: "h100",
    source: "Qwen/Qwen2.5-7B-Instruct",
    engine: "vllm",
    gpu: "H100-80G",
    gpus: 1,
    nodes: 1,
    memoryGb: 16,
    cpuCores: 4,
    sizeGb: 15,
    nodeSelector: {},
    ...overrides,
  };
}
