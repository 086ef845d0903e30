// What `npm test` prints after its totals when something failed: one line per failed test, read
// from vitest's and Playwright's JSON reports, so that the end of a long run's output (all a CI log
// may keep) names each failure and the first line of its error.

// The first line of a failure's message, without colour codes: enough to tell one failure from
// another where only the end of a long run's output is kept (CI's log tail).
function firstLine(text) {
  // eslint-disable-next-line no-control-regex
  const plain = String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "");
  const line = plain.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.trim().slice(0, 300);
}

// "file › test: first line of the error" for every failed vitest test, and each file that failed
// before its tests ran (an import error, a failing beforeAll).
export function vitestFailures(report, root) {
  const out = [];
  for (const suite of report.testResults ?? []) {
    const name = suite.name.startsWith(`${root}/`) ? suite.name.slice(root.length + 1) : suite.name;
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed)
      out.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (failed.length === 0 && suite.status === "failed")
      out.push(`${name}: ${firstLine(suite.message)}`);
  }
  return out;
}

export function playwrightFailures(report) {
  const out = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected") continue;
        const error = test.results?.at(-1)?.error?.message;
        out.push(`${spec.file} › ${[...path, spec.title].join(" › ")}: ${firstLine(error)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  // The top-level suites are the spec files; the ones beneath them are describe blocks.
  for (const suite of report.suites ?? []) walk(suite, []);
  // Errors outside any test: a global setup that threw, a web server that never started.
  for (const error of report.errors ?? []) out.push(`Playwright: ${firstLine(error.message)}`);
  return out;
}
