// Where llama.cpp's source comes from and where its build lives. The source is the git bundle of
// llama.cpp's pinned release that the npm package node-llama-cpp ships (package/llama/
// gitRelease.bundle): the npm registry is reachable from nodes that cannot reach GitHub, and the
// tarball's sha512 is pinned here, so a changed tarball is refused rather than built.
import os from "node:os";
import path from "node:path";

export const LLAMACPP_SOURCE = {
  registryPackage: "node-llama-cpp",
  packageVersion: "3.22.1",
  /** The npm `dist.integrity` of that tarball. */
  integrity:
    "sha512-bltIipuWmc123H7tMIgDGKSsSrhmhlQYeVUC48XTjVW7XGJJiJJyCdlTMzQ/LiWoPkGDpcL4FviDpgw7qfTiDw==",
  /** llama.cpp's release inside it (package/llama/llama.cpp.info.json) and its commit. */
  release: "v0.5.0",
  commit: "de3ff815ea7d559ee917f063901b8986f038abc6",
  bundlePath: "package/llama/gitRelease.bundle",
} as const;

export const DEFAULT_NPM_REGISTRY = "https://registry.npmjs.org";

/** The version an install is reported under: the llama.cpp release and its short commit. */
export const LLAMACPP_VERSION = `${LLAMACPP_SOURCE.release}-${LLAMACPP_SOURCE.commit.slice(0, 7)}`;

/**
 * `$XDG_CACHE_HOME/llmgw/engines` (else `~/.cache/llmgw/engines`): outside any checkout and data
 * directory, so a second test run, a new agent data dir or a reinstall of llmgw does not rebuild.
 */
export function defaultEngineDir(env: Readonly<Record<string, string | undefined>>): string {
  const cacheHome = env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache");
  return path.join(cacheHome, "llmgw", "engines");
}

export interface LlamaCppLayout {
  /** `<engines>/llamacpp-<version>`: everything of this version lives under it. */
  rootDir: string;
  tarballFile: string;
  sourceDir: string;
  buildDir: string;
  /** The checked binary; it exists only after a build that passed its `--version` check. */
  executable: string;
  /** Written last: the version, the commit, how long the build took. */
  markerFile: string;
  logFile: string;
}

export function llamaCppLayout(engineDir: string): LlamaCppLayout {
  const rootDir = path.join(engineDir, `llamacpp-${LLAMACPP_SOURCE.release}`);
  return {
    rootDir,
    tarballFile: path.join(
      rootDir,
      `${LLAMACPP_SOURCE.registryPackage}-${LLAMACPP_SOURCE.packageVersion}.tgz`,
    ),
    sourceDir: path.join(rootDir, "src"),
    buildDir: path.join(rootDir, "build"),
    executable: path.join(rootDir, "bin", "llama-server"),
    markerFile: path.join(rootDir, "install.json"),
    logFile: path.join(rootDir, "build.log"),
  };
}

/** CPU only, no network code in the engine (it never downloads a model itself), static, Release. */
export const LLAMACPP_CMAKE_FLAGS: readonly string[] = [
  "-DCMAKE_BUILD_TYPE=Release",
  "-DBUILD_SHARED_LIBS=OFF",
  "-DLLAMA_BUILD_TESTS=OFF",
  "-DLLAMA_BUILD_EXAMPLES=OFF",
  "-DLLAMA_BUILD_SERVER=ON",
  "-DLLAMA_BUILD_TOOLS=ON",
  "-DLLAMA_BUILD_UI=OFF",
  "-DLLAMA_USE_PREBUILT_UI=OFF",
  "-DLLAMA_OPENSSL=OFF",
  "-DGGML_NATIVE=ON",
];
