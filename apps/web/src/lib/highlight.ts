// Splits a log line around the matches of a search, case-insensitively, so the page can wrap the
// matches in <mark> without building HTML from strings.

export interface LinePart {
  text: string;
  isMatch: boolean;
}

export function splitMatches(line: string, query: string): LinePart[] {
  if (query === "") return [{ text: line, isMatch: false }];
  const parts: LinePart[] = [];
  const haystack = line.toLowerCase();
  const needle = query.toLowerCase();
  let from = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push({ text: line.slice(from, at), isMatch: false });
    parts.push({ text: line.slice(at, at + needle.length), isMatch: true });
    from = at + needle.length;
  }
  if (from < line.length) parts.push({ text: line.slice(from), isMatch: false });
  return parts;
}

export function countMatches(lines: readonly string[], query: string): number {
  if (query === "") return 0;
  return lines.reduce(
    (sum, line) => sum + splitMatches(line, query).filter((part) => part.isMatch).length,
    0,
  );
}
