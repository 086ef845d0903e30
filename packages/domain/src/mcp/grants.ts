// MCP tool grants: which tools a caller may use, from the lists its levels name. A caller's
// levels run from the top of the ownership tree down to it (org → team → project → person, and
// `key:<id>` below a key's owner). The lowest level that names its own list decides; a level
// without one inherits. An empty list is a closed level: it grants nothing, even while levels
// above it name tools. Pure: the service reads the rows and writes back what these functions say.
import { modelPatternMatches } from "../routing/allowlist";

export const MCP_KEY_SUBJECT_PREFIX = "key:";

/** One level's own list for one server. */
export interface GrantRow {
  subject: string;
  tools: readonly string[];
}

/** A row together with the levels above it (top first, not including the row's own subject). */
export interface PlacedGrantRow extends GrantRow {
  above: readonly string[];
}

export interface EffectiveGrant {
  tools: readonly string[];
  /** The level whose list decided, or null when no level names one. */
  from: string | null;
}

/** The list in force at the bottom of `levels` (top first): the lowest level naming its own. */
export function effectiveGrant(
  levels: readonly string[],
  rows: ReadonlyMap<string, readonly string[]>,
): EffectiveGrant {
  for (const level of [...levels].reverse()) {
    const own = rows.get(level);
    if (own) return { tools: own, from: level };
  }
  return { tools: [], from: null };
}

export function toolGranted(patterns: readonly string[], tool: string): boolean {
  return patterns.some((pattern) => modelPatternMatches(pattern, tool));
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/**
 * The list a level names after a grant: what it had (its own list, or a copy of what it
 * inherited when it had none, so the grant adds to what it could already use) plus `patterns`.
 */
export function listAfterGrant(
  own: readonly string[] | undefined,
  inherited: readonly string[],
  patterns: readonly string[],
): string[] {
  return union(own ?? inherited, patterns);
}

/** What becomes of one level's row after a revoke: a new list, or the row goes (inherits again). */
export type RevokeChange =
  { subject: string; kind: "set"; tools: string[] } | { subject: string; kind: "delete" };

export interface RevokeInput {
  subject: string;
  /** The levels above the revoking subject, top first. */
  above: readonly string[];
  /** The patterns to take away; null takes every tool of the server. */
  patterns: readonly string[] | null;
  /** Every stored row for this server, each with its levels above. */
  rows: readonly PlacedGrantRow[];
}

/**
 * Revoking takes the tools from the subject and from every level beneath it. A level left naming
 * no tool stays closed (`[]`) while a level above or beneath it still names tools, since going
 * back to no list would open it to what is above; a closed level with no tools around it anywhere
 * is dropped, as it would change nothing.
 */
export function planRevoke(input: RevokeInput): RevokeChange[] {
  const byName = new Map(input.rows.map((row) => [row.subject, row]));
  const inherited = effectiveGrant(input.above, listsOf(input.rows)).tools;
  const own = byName.get(input.subject)?.tools ?? inherited;
  const patterns = input.patterns;
  const strip = (tools: readonly string[]) =>
    patterns === null ? [] : tools.filter((tool) => !patterns.includes(tool));
  const after = new Map<string, PlacedGrantRow>(byName);
  after.set(input.subject, { subject: input.subject, above: input.above, tools: strip(own) });
  for (const row of input.rows) {
    if (row.above.includes(input.subject))
      after.set(row.subject, { ...row, tools: strip(row.tools) });
  }
  const changes: RevokeChange[] = [];
  for (const row of after.values()) {
    const before = byName.get(row.subject);
    const touched = row.subject === input.subject || row.above.includes(input.subject);
    if (!touched) continue;
    if (row.tools.length === 0 && !hasToolsAround(row, [...after.values()])) {
      if (before) changes.push({ subject: row.subject, kind: "delete" });
      continue;
    }
    if (!before || !sameList(before.tools, row.tools))
      changes.push({ subject: row.subject, kind: "set", tools: [...row.tools].sort() });
  }
  return changes;
}

function listsOf(rows: readonly GrantRow[]): Map<string, readonly string[]> {
  return new Map(rows.map((row) => [row.subject, row.tools]));
}

function hasToolsAround(row: PlacedGrantRow, all: readonly PlacedGrantRow[]): boolean {
  return all.some(
    (other) =>
      other.subject !== row.subject &&
      other.tools.length > 0 &&
      (row.above.includes(other.subject) || other.above.includes(row.subject)),
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().every((tool, i) => tool === [...b].sort()[i]);
}
