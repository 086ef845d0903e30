// Every console page the benchmark opens, read from apps/web's routes (app/(console)/**/page.tsx),
// each with what shows that its main content has been rendered with data: a CSS selector that
// matches only once the page's data has arrived (a count that is empty until then, a list, or the
// page's empty state). A route with no entry here fails the run, so a new page cannot be skipped.
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";

export interface ConsolePage {
  /** The route as apps/web spells it, e.g. `/nodes/[id]`. */
  route: string;
  /** Matches once the main content is rendered with data. */
  ready: string;
}

const READY: Record<string, string> = {
  "/": '[data-testid="cluster-card-count"]:not(:empty)',
  "/cluster": '[data-testid="cluster-card-count"]:not(:empty)',
  "/nodes": '[data-testid="nodes-count"]:not(:empty)',
  "/nodes/[id]": '[data-testid="node-facts"]',
  "/nodes/[id]/logs": '[data-testid="logs-output"], [data-testid="logs-empty"]',
  "/replicas": '[data-testid="replicas-count"]:not(:empty)',
  "/models": '[data-testid="models-count"]:not(:empty)',
  "/keys": '[data-testid="keys-count"]:not(:empty)',
  "/quotas": '[data-testid="quota-scope"], [data-testid="quotas-empty"]',
  "/usage": '[data-testid="usage-group"], [data-testid="usage-empty"]',
  "/events": '[data-testid="event-kind"], [data-testid="events-empty"]',
  "/facility": '[data-testid="facility-empty"], [data-testid="facility-row"]',
  "/explore": '[data-testid="explore-run"]',
  "/account": '[data-testid="account-summary"]',
  "/audit": '[data-testid="audit-count"]:not(:empty)',
  "/people": '[data-testid="person-row"]',
  "/people/sign-in": '[data-testid="signin-setup-state"]:not(:empty)',
  "/admin/federation": '[data-testid="federation-empty"], [data-testid="federation-peer-row"]',
  "/admin/guard": '[data-testid="guard-count"]:not(:empty), [data-testid="guard-empty"]',
  "/admin/mcp": '[data-testid="mcp-count"]:not(:empty), [data-testid="mcp-empty"]',
};

function pageFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? pageFiles(join(dir, entry.name))
      : entry.name === "page.tsx"
        ? [join(dir, entry.name)]
        : [],
  );
}

/** The console's routes (route groups like `(console)` dropped), with their ready selectors. */
export function consolePages(webDir: string): ConsolePage[] {
  const appDir = join(webDir, "app", "(console)");
  const routes = pageFiles(appDir)
    .map((file) => relative(appDir, file).split(sep).slice(0, -1))
    .map((parts) => `/${parts.filter((part) => !part.startsWith("(")).join("/")}`)
    .sort();
  const missing = routes.filter((route) => READY[route] === undefined);
  if (missing.length > 0)
    throw new Error(
      `bench/console/pages.ts has no ready selector for ${missing.join(", ")}: add one`,
    );
  return routes.map((route) => ({ route, ready: READY[route] ?? "" }));
}
