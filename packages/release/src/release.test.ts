import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
  existsSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { create } from "tar";
import { afterEach, describe, expect, it } from "vitest";
import {
  currentInstall,
  hashToFile,
  installOrWhyNot,
  inspectRelease,
  parseReleaseFileName,
  parseSums,
  releaseFileName,
  sha256File,
  swapCurrent,
  unpackRelease,
} from "./index";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "llmgw-release-"));
  made.push(dir);
  return dir;
}

/** A small real release folder `<work>/llmgw-<folderVersion>/` whose VERSION says `says`. */
function releaseFolder(work: string, folderVersion: string, says = folderVersion): void {
  const top = join(work, `llmgw-${folderVersion}`);
  mkdirSync(join(top, "bin"), { recursive: true });
  mkdirSync(join(top, "lib"), { recursive: true });
  writeFileSync(join(top, "VERSION"), `${says}\n`);
  writeFileSync(join(top, "bin", "llmgw"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(join(top, "lib", "llmgw.mjs"), "console.log('hi')\n");
}

async function tarball(cwd: string, entries: string[], preservePaths = false): Promise<string> {
  const file = join(tempDir(), "release.tar.gz");
  await create({ gzip: true, file, cwd, preservePaths }, entries);
  return file;
}

describe("release file names", () => {
  it("round-trips a version through the file name", () => {
    expect(releaseFileName("1.2.3-rc.1")).toBe("llmgw-1.2.3-rc.1-linux-x64.tar.gz");
    expect(parseReleaseFileName("llmgw-1.2.3-rc.1-linux-x64.tar.gz")).toBe("1.2.3-rc.1");
  });

  it("refuses names that are not a release's, including ones that climb directories", () => {
    expect(parseReleaseFileName("llmgw-1.2-linux-x64.tar.gz")).toBeNull();
    expect(parseReleaseFileName("llmgw-../../x-linux-x64.tar.gz")).toBeNull();
    expect(parseReleaseFileName("other-1.2.3-linux-x64.tar.gz")).toBeNull();
    expect(() => releaseFileName("1.2.3/..")).toThrow(/not a release version/);
  });
});

describe("parseSums", () => {
  it("reads sha256sum output, text and binary mode, any hex case", () => {
    const hex = "ab".repeat(32);
    const sums = parseSums(
      `${hex}  llmgw-1.0.0-linux-x64.tar.gz\n${hex.toUpperCase()} *other.tar.gz\n\n`,
    );
    expect(sums.get("llmgw-1.0.0-linux-x64.tar.gz")).toBe(hex);
    expect(sums.get("other.tar.gz")).toBe(hex);
  });

  it("names the line that is not a checksum", () => {
    expect(() => parseSums(`${"0".repeat(64)}  a\nnot a sum\n`)).toThrow(/line 2/);
  });
});

describe("hashing", () => {
  it("hashes a file as a stream, the same as while writing it", async () => {
    const dir = tempDir();
    const path = join(dir, "copy");
    const written = await hashToFile(
      Readable.from([Buffer.from("hello "), Buffer.from("world")]),
      path,
      1024,
    );
    expect(written).toEqual({
      sha256: "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9",
      bytes: 11,
    });
    expect(await sha256File(path)).toBe(written.sha256);
  });

  it("stops and removes the file past the byte limit", async () => {
    const path = join(tempDir(), "big");
    await expect(
      hashToFile(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), path, 1000),
    ).rejects.toThrow(/larger than the limit of 1000 bytes/);
    expect(existsSync(path)).toBe(false);
  });
});

describe("unpackRelease", () => {
  it("unpacks beside the running release and swaps current atomically, keeping the old one", async () => {
    const work = tempDir();
    releaseFolder(work, "1.0.0");
    releaseFolder(work, "1.1.0");
    const root = tempDir();
    await unpackRelease(await tarball(work, ["llmgw-1.0.0"]), root, "1.0.0");
    await swapCurrent(root, "1.0.0");
    expect(currentInstall(join(root, "current"))).toEqual({
      releaseDir: join(root, "llmgw-1.0.0"),
      root,
      version: "1.0.0",
    });
    await unpackRelease(await tarball(work, ["llmgw-1.1.0"]), root, "1.1.0");
    await swapCurrent(root, "1.1.0");
    expect(readlinkSync(join(root, "current"))).toBe("llmgw-1.1.0");
    expect(readFileSync(join(root, "llmgw-1.0.0", "VERSION"), "utf8")).toBe("1.0.0\n");
    expect(existsSync(join(root, ".llmgw-1.1.0.partial"))).toBe(false);
  });

  it("refuses a tarball whose VERSION is not the version asked for", async () => {
    const work = tempDir();
    releaseFolder(work, "2.0.0", "1.9.9");
    const root = tempDir();
    await expect(
      unpackRelease(await tarball(work, ["llmgw-2.0.0"]), root, "2.0.0"),
    ).rejects.toMatchObject({
      code: "version-mismatch",
    });
    expect(existsSync(join(root, "llmgw-2.0.0"))).toBe(false);
  });

  it("refuses a tarball whose top folder is another version's", async () => {
    const work = tempDir();
    releaseFolder(work, "1.0.0");
    await expect(inspectRelease(await tarball(work, ["llmgw-1.0.0"]), "2.0.0")).rejects.toThrow(
      /outside the folder llmgw-2.0.0/,
    );
  });

  it("refuses an entry that climbs out with .. and writes nothing", async () => {
    const outer = tempDir();
    const work = join(outer, "work");
    mkdirSync(work);
    releaseFolder(work, "1.0.0");
    writeFileSync(join(outer, "evil.sh"), "rm -rf /\n");
    const attack = await tarball(work, ["llmgw-1.0.0", "../evil.sh"], true);
    const root = join(tempDir(), "install", "deep");
    mkdirSync(root, { recursive: true });
    await expect(unpackRelease(attack, root, "1.0.0")).rejects.toThrow(
      /"\.\.\/evil\.sh" climbs out/,
    );
    expect(existsSync(join(root, "..", "evil.sh"))).toBe(false);
    expect(existsSync(join(root, "llmgw-1.0.0"))).toBe(false);
  });

  it("refuses an absolute path", async () => {
    const work = tempDir();
    releaseFolder(work, "1.0.0");
    const elsewhere = join(tempDir(), "authorized_keys");
    writeFileSync(elsewhere, "ssh-ed25519 attacker\n");
    const attack = await tarball(work, ["llmgw-1.0.0", elsewhere], true);
    await expect(unpackRelease(attack, tempDir(), "1.0.0")).rejects.toThrow(/is an absolute path/);
  });

  it("refuses a symbolic link pointing outside the release", async () => {
    const work = tempDir();
    releaseFolder(work, "1.0.0");
    symlinkSync("../../../../etc", join(work, "llmgw-1.0.0", "lib", "escape"));
    const attack = await tarball(work, ["llmgw-1.0.0"]);
    await expect(unpackRelease(attack, tempDir(), "1.0.0")).rejects.toThrow(
      /links to "..\/..\/..\/..\/etc"/,
    );
  });

  it("keeps a link that stays inside the release", async () => {
    const work = tempDir();
    releaseFolder(work, "1.0.0");
    symlinkSync("../lib/llmgw.mjs", join(work, "llmgw-1.0.0", "bin", "entry.mjs"));
    const root = tempDir();
    await unpackRelease(await tarball(work, ["llmgw-1.0.0"]), root, "1.0.0");
    expect(readlinkSync(join(root, "llmgw-1.0.0", "bin", "entry.mjs"))).toBe("../lib/llmgw.mjs");
  });

  it("refuses a file that is not a tarball", async () => {
    const file = join(tempDir(), "llmgw-1.0.0-linux-x64.tar.gz");
    writeFileSync(file, "<html>not found</html>");
    await expect(inspectRelease(file, "1.0.0")).rejects.toMatchObject({ code: "bad-tarball" });
  });
});

describe("currentInstall", () => {
  it("is null from a checkout, which cannot upgrade itself", () => {
    expect(currentInstall(undefined)).toBeNull();
    expect(installOrWhyNot(undefined)).toEqual({
      reason: expect.stringMatching(/runs from a checkout/),
    });
  });

  it("explains when current does not point at the running release", async () => {
    const work = tempDir();
    releaseFolder(work, "1.0.0");
    releaseFolder(work, "1.1.0");
    const root = tempDir();
    await unpackRelease(await tarball(work, ["llmgw-1.0.0"]), root, "1.0.0");
    await unpackRelease(await tarball(work, ["llmgw-1.1.0"]), root, "1.1.0");
    await swapCurrent(root, "1.1.0");
    expect(installOrWhyNot(join(root, "llmgw-1.0.0"))).toEqual({
      reason: expect.stringMatching(
        /current points at .*llmgw-1\.1\.0, not at the running release/,
      ),
    });
    expect(currentInstall(join(root, "llmgw-1.1.0"))?.version).toBe("1.1.0");
  });
});
