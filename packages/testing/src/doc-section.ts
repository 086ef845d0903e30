// Documents that programs write parts of (benchmarks, the soak's report): each program owns one
// marked section, `<!-- KIND:NAME:start -->` … `<!-- KIND:NAME:end -->`, and rewrites only that.

/** Replaces the marked section in `existing`, or appends it; everything else stays as it was. */
export function withMarkedSection(marker: string, existing: string, section: string): string {
  const start = `<!-- ${marker}:start -->`;
  const end = `<!-- ${marker}:end -->`;
  const block = `${start}\n${section.trimEnd()}\n${end}\n`;
  const at = existing.indexOf(start);
  const until = existing.indexOf(end);
  if (at < 0 || until < at) return `${existing.trimEnd()}\n\n${block}`;
  return existing.slice(0, at) + block + existing.slice(until + end.length).replace(/^\n/, "");
}
