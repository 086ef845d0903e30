// Which build of the GPU engines a node installs (vLLM's CUDA 13 or CUDA 12.9 wheels, with the
// matching PyTorch), chosen per node by an admin and resolved on the node against its driver. A pure
// decision: the agent applies it, the control plane and the console show it.

export const ENGINE_BUILD_CHOICES = ["auto", "cu13", "cu129", "none"] as const;
export type EngineBuildChoice = (typeof ENGINE_BUILD_CHOICES)[number];
/** What a node installs after resolving its choice. */
export type EngineBuild = "cu13" | "cu129" | "none";

/** GPU engines that a node installs itself from a CUDA build (unless already on its PATH). */
export const GPU_INSTALL_ENGINES: readonly string[] = ["vllm"];

/** The oldest driver each build runs on (CUDA 13.0 needs 580, CUDA 12.9 needs 575). */
export const DRIVER_MAJOR_MIN = { cu13: 580, cu129: 575 } as const;

export function isEngineBuildChoice(text: string): text is EngineBuildChoice {
  return (ENGINE_BUILD_CHOICES as readonly string[]).includes(text);
}

export interface ResolvedEngineBuild {
  build: EngineBuild;
  /** A sentence saying why this build, shown beside it. */
  reason: string;
}

/** The driver's major version ("590.48.01" → 590), or null when it says none. */
export function driverMajorOf(driverVersion: string): number | null {
  const match = /^(\d+)/.exec(driverVersion.trim());
  return match ? Number(match[1]) : null;
}

/**
 * The build a node installs: an explicit choice as it is, `auto` by the node's driver (the newest
 * build the driver runs), and nothing for a node without cards or with a driver too old for both.
 */
export function resolveEngineBuild(
  choice: EngineBuildChoice,
  node: { driverVersion: string; gpuCount: number },
): ResolvedEngineBuild {
  if (choice === "none")
    return { build: "none", reason: "the build is set to none: no GPU engine is installed" };
  if (choice !== "auto") return { build: choice, reason: `${choice} was chosen for this node` };
  if (node.gpuCount === 0) return { build: "none", reason: "auto: the node has no GPU" };
  const major = driverMajorOf(node.driverVersion);
  if (major === null)
    return { build: "none", reason: "auto: the node's driver version is unknown" };
  if (major >= DRIVER_MAJOR_MIN.cu13)
    return {
      build: "cu13",
      reason: `auto: driver ${node.driverVersion} runs CUDA 13 (580 or newer)`,
    };
  if (major >= DRIVER_MAJOR_MIN.cu129)
    return {
      build: "cu129",
      reason: `auto: driver ${node.driverVersion} is older than 580, so CUDA 12.9 (575 or newer)`,
    };
  return {
    build: "none",
    reason: `auto: driver ${node.driverVersion} is older than 575, which CUDA 12.9 needs; upgrade the driver`,
  };
}

/** What the vLLM install fetches for a build: the release's wheel and PyTorch's index for it. */
export function vllmInstallSource(build: EngineBuild): string {
  if (build === "none") return "";
  return `vLLM's ${build} wheel from its GitHub release, torch from https://download.pytorch.org/whl/${build}`;
}

/**
 * The GPU engines a node stops offering under its build: with `none`, those it would have to
 * install (an engine already on its PATH needs no build and stays).
 */
export function withheldEngines(
  build: EngineBuild,
  offered: readonly string[],
  onPath: readonly string[],
): string[] {
  if (build !== "none") return [];
  return GPU_INSTALL_ENGINES.filter(
    (engine) => offered.includes(engine) && !onPath.includes(engine),
  );
}
