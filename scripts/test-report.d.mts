/** "file › test: first line of its error" for each failed test in vitest's JSON report. */
export function vitestFailures(report: unknown, root: string): string[];
/** The same for Playwright's JSON report ("file › describe › test: …"). */
export function playwrightFailures(report: unknown): string[];
