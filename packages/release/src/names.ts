import { isReleaseVersion } from "@llmgw/domain";
import { ReleaseError } from "./errors";

export { isReleaseVersion };

const FILE_PREFIX = "llmgw-";
const FILE_SUFFIX = "-linux-x64.tar.gz";

export function releaseFileName(version: string): string {
  if (!isReleaseVersion(version)) {
    throw new ReleaseError("bad-name", `"${version}" is not a release version (like 1.2.3)`);
  }
  return `${FILE_PREFIX}${version}${FILE_SUFFIX}`;
}

/** The version a release file name carries, or null when the name is not a release file's. */
export function parseReleaseFileName(fileName: string): string | null {
  if (!fileName.startsWith(FILE_PREFIX) || !fileName.endsWith(FILE_SUFFIX)) return null;
  const version = fileName.slice(FILE_PREFIX.length, -FILE_SUFFIX.length);
  return isReleaseVersion(version) ? version : null;
}

const SUMS_LINE = /^([0-9a-fA-F]{64}) [ *](.+)$/;

/**
 * Reads a sha256sum file (`<hex>  <file>`, one a line) into file name → lower-case hex. A line
 * that is not in that form is refused by its number, so a damaged file is never half-trusted.
 */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  text.split("\n").forEach((rawLine, index) => {
    const line = rawLine.replace(/\r$/, "");
    if (line.trim() === "") return;
    const match = SUMS_LINE.exec(line.trim());
    if (!match?.[1] || !match[2]) {
      throw new ReleaseError(
        "bad-sums",
        `line ${index + 1} of the checksums is not "<sha256 hex>  <file name>"`,
      );
    }
    sums.set(match[2], match[1].toLowerCase());
  });
  return sums;
}
