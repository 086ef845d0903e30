/** Why a release was refused; the server answers the code and message as JSON `{code, message}`. */
export type ReleaseErrorCode =
  | "bad-name"
  | "bad-sums"
  | "hash-mismatch"
  | "too-large"
  | "bad-tarball"
  | "version-mismatch"
  | "not-installed";

export class ReleaseError extends Error {
  constructor(
    readonly code: ReleaseErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ReleaseError";
  }
}
