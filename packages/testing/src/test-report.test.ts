// `npm test` ends a failed run by naming each failure (scripts/test-report.mjs). The reports here
// are cut down from real ones: vitest 4's and Playwright's JSON reporters on failing files.
import { describe, expect, it } from "vitest";
import { playwrightFailures, vitestFailures } from "../../../scripts/test-report.mjs";

const ROOT = "/work/main";

const VITEST = {
  numFailedTests: 1,
  testResults: [
    {
      name: `${ROOT}/packages/testing/src/a.test.ts`,
      status: "failed",
      message: "",
      assertionResults: [
        {
          fullName: "outer fails",
          status: "failed",
          failureMessages: [
            "\u001b[31mAssertionError: expected 2 to be 3 // Object.is equality\u001b[39m\n    at /work/main/packages/testing/src/a.test.ts:3:37",
          ],
        },
        { fullName: "outer passes", status: "passed", failureMessages: [] },
      ],
    },
    {
      name: `${ROOT}/packages/testing/src/b.test.ts`,
      status: "failed",
      message: "setup broke",
      assertionResults: [{ fullName: "never runs", status: "skipped", failureMessages: [] }],
    },
    {
      name: `${ROOT}/packages/testing/src/c.test.ts`,
      status: "passed",
      message: "",
      assertionResults: [{ fullName: "fine", status: "passed", failureMessages: [] }],
    },
  ],
};

const PLAYWRIGHT = {
  suites: [
    {
      title: "a.spec.ts",
      file: "a.spec.ts",
      specs: [
        {
          title: "top fails",
          file: "a.spec.ts",
          tests: [
            {
              status: "unexpected",
              results: [
                {
                  status: "failed",
                  error: { message: "Error: expect(received).toBe(expected)\n\nExpected: 2" },
                },
              ],
            },
          ],
        },
        {
          title: "flaky but passed",
          file: "a.spec.ts",
          tests: [{ status: "flaky", results: [{ status: "failed" }, { status: "passed" }] }],
        },
      ],
      suites: [
        {
          title: "group",
          file: "a.spec.ts",
          specs: [
            {
              title: "inner fails",
              file: "a.spec.ts",
              tests: [
                {
                  status: "unexpected",
                  results: [{ status: "failed", error: { message: "Error: boom\nsecond" } }],
                },
              ],
            },
            {
              title: "ok",
              file: "a.spec.ts",
              tests: [{ status: "expected", results: [{ status: "passed" }] }],
            },
          ],
        },
      ],
    },
  ],
  errors: [{ message: "Error: Timed out waiting 120000ms from config.webServer." }],
};

describe("the failure list at the end of npm test", () => {
  it("names each failed vitest test and each file that failed before its tests ran", () => {
    expect(vitestFailures(VITEST, ROOT)).toEqual([
      "packages/testing/src/a.test.ts › outer fails: AssertionError: expected 2 to be 3 // Object.is equality",
      "packages/testing/src/b.test.ts: setup broke",
    ]);
  });

  it("names each unexpected Playwright result with its describe path, and errors outside tests", () => {
    expect(playwrightFailures(PLAYWRIGHT)).toEqual([
      "a.spec.ts › top fails: Error: expect(received).toBe(expected)",
      "a.spec.ts › group › inner fails: Error: boom",
      "Playwright: Error: Timed out waiting 120000ms from config.webServer.",
    ]);
  });

  it("lists nothing for a run where everything passed", () => {
    expect(vitestFailures({ testResults: [VITEST.testResults[2]] }, ROOT)).toEqual([]);
    expect(playwrightFailures({ suites: [], errors: [] })).toEqual([]);
  });
});
