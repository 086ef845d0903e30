// Small real releases for tests (server upload, agent self-upgrade): a folder `llmgw-V/` with a
// VERSION, a bin/llmgw and a lib/, packed as `llmgw-V-linux-x64.tar.gz` with its SHA256SUMS.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "tar";
import { sha256File } from "./hash";
import { releaseFileName } from "./names";

export interface TestRelease {
  file: string;
  sha256: string;
}

/** Packs a tiny release of `version` into `outDir`; `says` puts another version in its VERSION. */
export async function writeTestRelease(
  outDir: string,
  version: string,
  options: { says?: string; binScript?: string } = {},
): Promise<TestRelease> {
  const work = mkdtempSync(join(tmpdir(), "llmgw-test-release-"));
  try {
    const top = join(work, `llmgw-${version}`);
    mkdirSync(join(top, "bin"), { recursive: true });
    mkdirSync(join(top, "lib"), { recursive: true });
    writeFileSync(join(top, "VERSION"), `${options.says ?? version}\n`);
    writeFileSync(join(top, "bin", "llmgw"), options.binScript ?? "#!/bin/sh\nexit 0\n", {
      mode: 0o755,
    });
    writeFileSync(join(top, "lib", "llmgw.mjs"), "export {};\n");
    mkdirSync(outDir, { recursive: true });
    const file = join(outDir, releaseFileName(version));
    await create({ gzip: true, file, cwd: work, portable: true }, [`llmgw-${version}`]);
    const sha256 = await sha256File(file);
    writeFileSync(join(outDir, "SHA256SUMS"), `${sha256}  ${releaseFileName(version)}\n`, {
      flag: "a",
    });
    return { file, sha256 };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
