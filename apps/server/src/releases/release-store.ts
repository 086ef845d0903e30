// The control plane's releases: `<LLMGW_HOME>/releases/` holds the tarballs `ctl release add`
// uploaded and a SHA256SUMS naming each one's hash. An upload is written to a temporary file while
// it is hashed and only renamed in once its hash, size and contents are checked, so the folder
// never holds a release that was not checked.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  hashToFile,
  inspectRelease,
  parseReleaseFileName,
  parseSums,
  ReleaseError,
  releaseFileName,
  sha256File,
} from "@llmgw/release";

/** The largest release an upload may send unless the store is told otherwise. */
const RELEASE_BYTES_MAX_DEFAULT = 1024 ** 3;

export interface StoredRelease {
  version: string;
  file: string;
  sha256: string;
  bytes: number;
  added: Date;
}

const SUMS_FILE = "SHA256SUMS";

export class ReleaseStore {
  constructor(
    readonly dir: string,
    readonly bytesMax = RELEASE_BYTES_MAX_DEFAULT,
  ) {}

  /** Stored releases, newest first. */
  async list(): Promise<StoredRelease[]> {
    const sums = await this.sums();
    const found: StoredRelease[] = [];
    for (const [file, sha256] of sums) {
      const version = parseReleaseFileName(file);
      const stats = await stat(join(this.dir, file)).catch(() => null);
      if (version === null || stats === null) continue;
      found.push({ version, file, sha256, bytes: stats.size, added: stats.mtime });
    }
    return found.sort((a, b) => b.added.getTime() - a.added.getTime());
  }

  /** The stored release of a version, or null. */
  async find(version: string): Promise<StoredRelease | null> {
    return (await this.list()).find((release) => release.version === version) ?? null;
  }

  /** The path of a stored release file, or null when the name is not one or is not stored. */
  async pathOf(file: string): Promise<string | null> {
    if (parseReleaseFileName(file) === null) return null;
    return (await this.sums()).has(file) ? join(this.dir, file) : null;
  }

  /** Checks a stored release against the SHA256SUMS entry written when it was added. */
  async verified(version: string): Promise<StoredRelease> {
    const release = await this.find(version);
    if (!release) {
      throw new ReleaseError(
        "bad-name",
        `no release ${version} is stored; add it with llmgw ctl release add`,
      );
    }
    const actual = await sha256File(join(this.dir, release.file));
    if (actual !== release.sha256) {
      throw new ReleaseError(
        "hash-mismatch",
        `${release.file} no longer matches its SHA256SUMS entry (${actual})`,
      );
    }
    return release;
  }

  /**
   * Stores an uploaded release: refused unless the name is a release file's, the body is within
   * the limit, its SHA-256 is `expectedSha256`, and the archive holds only `llmgw-V/` saying V.
   */
  async add(
    file: string,
    body: AsyncIterable<Uint8Array>,
    expectedSha256: string,
  ): Promise<StoredRelease> {
    const version = parseReleaseFileName(file);
    if (version === null) {
      throw new ReleaseError(
        "bad-name",
        `"${file.slice(0, 120)}" is not a release file name (llmgw-1.2.3-linux-x64.tar.gz)`,
      );
    }
    if (!/^[0-9a-f]{64}$/i.test(expectedSha256)) {
      throw new ReleaseError(
        "hash-mismatch",
        "the x-llmgw-sha256 header must be the file's SHA-256 in hex",
      );
    }
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temporary = join(this.dir, `.upload-${randomBytes(8).toString("hex")}.partial`);
    try {
      const { sha256 } = await hashToFile(body, temporary, this.bytesMax);
      if (sha256 !== expectedSha256.toLowerCase()) {
        throw new ReleaseError(
          "hash-mismatch",
          `the body's SHA-256 is ${sha256}, not ${expectedSha256.toLowerCase()} as sent`,
        );
      }
      await inspectRelease(temporary, version);
      await rename(temporary, join(this.dir, file));
      const sums = await this.sums();
      sums.set(file, sha256);
      await this.writeSums(sums);
    } finally {
      await rm(temporary, { force: true });
    }
    const stored = await this.find(version);
    if (!stored) throw new ReleaseError("bad-name", `${file} was stored but cannot be read back`);
    return stored;
  }

  /** Removes a stored release; false when none of that version was stored. */
  async remove(version: string): Promise<boolean> {
    const file = releaseFileName(version);
    const sums = await this.sums();
    const known = sums.delete(file);
    await this.writeSums(sums);
    await rm(join(this.dir, file), { force: true });
    return known;
  }

  private async sums(): Promise<Map<string, string>> {
    const text = await readFile(join(this.dir, SUMS_FILE), "utf8").catch(() => "");
    return parseSums(text);
  }

  /** Rewritten under a temporary name and renamed, so a reader never sees half a file. */
  private async writeSums(sums: Map<string, string>): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const lines = [...sums]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, hex]) => `${hex}  ${file}\n`);
    const temporary = join(this.dir, `.${SUMS_FILE}.tmp`);
    await writeFile(temporary, lines.join(""), { mode: 0o600 });
    await rename(temporary, join(this.dir, SUMS_FILE));
  }

  /** Temporary files an interrupted upload left behind; removed when the server starts. */
  async clearPartials(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name.endsWith(".partial"))
        .map((name) => rm(join(this.dir, name), { force: true })),
    );
  }
}
