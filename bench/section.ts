// Each benchmark owns one marked section of docs/benchmarks.md and rewrites only that section. The
// file is written formatted as the repository's prettier check (`npm test`) expects it.
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { withMarkedSection } from "@llmgw/testing";

const HEADER =
  "# Benchmarks\n\nMeasured against the goals in [goals.md](goals.md). Each section is written by its benchmark; rerun the command to refresh it.\n\n";

const DOCS_PATH = fileURLToPath(new URL("../docs/benchmarks.md", import.meta.url));

/** Replaces the section `bench:<name>`, or appends it; everything else in the file stays. */
export async function withBenchSection(
  name: string,
  existing: string | undefined,
  section: string,
): Promise<string> {
  const text =
    existing === undefined || existing.trim() === ""
      ? withMarkedSection(`bench:${name}`, HEADER, section)
      : withMarkedSection(`bench:${name}`, existing, section);
  return format(text, { ...(await resolveConfig(DOCS_PATH)), filepath: DOCS_PATH });
}
