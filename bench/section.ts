// Each benchmark owns one marked section of docs/benchmarks.md and rewrites only that section.
import { withMarkedSection } from "@llmgw/testing";

const HEADER =
  "# Benchmarks\n\nMeasured against the goals in [goals.md](goals.md). Each section is written by its benchmark; rerun the command to refresh it.\n\n";

/** Replaces the section `bench:<name>`, or appends it; everything else in the file stays. */
export function withBenchSection(name: string, existing: string | undefined, section: string) {
  if (existing === undefined || existing.trim() === "")
    return withMarkedSection(`bench:${name}`, HEADER, section);
  return withMarkedSection(`bench:${name}`, existing, section);
}
