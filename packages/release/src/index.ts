// Fetching, checking and installing llmgw releases: the one package the server (its release store
// and its own upgrade), the agent (its self-upgrade) and the CLI (`ctl release add`) share, so all
// three agree on what a release file is called, how it is checked and how it is swapped in.
export { ReleaseError, type ReleaseErrorCode } from "./errors";
export { isReleaseVersion, parseReleaseFileName, parseSums, releaseFileName } from "./names";
export { hashToFile, sha256File } from "./hash";
export { inspectRelease, unpackRelease } from "./unpack";
export { currentInstall, installOrWhyNot, swapCurrent, type Install } from "./install";
