// Each benchmark owns one marked section of docs/benchmarks.md and rewrites only that section.

const HEADER =
  "# Benchmarks\n\nMeasured against the goals in [goals.md](goals.md). Each section is written by its benchmark; rerun the command to refresh it.\n\n";

/** Replaces the section `bench:<name>`, or appends it; everything else in the file stays. */
export function withBenchSection(name: string, existing: string | undefined, section: string) {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const block = `${start}\n${section.trimEnd()}\n${end}\n`;
  if (existing === undefined || existing.trim() === "") return HEADER + block;
  const at = existing.indexOf(start);
  const until = existing.indexOf(end);
  if (at < 0 || until < at) return `${existing.trimEnd()}\n\n${block}`;
  return existing.slice(0, at) + block + existing.slice(until + end.length).replace(/^\n/, "");
}
