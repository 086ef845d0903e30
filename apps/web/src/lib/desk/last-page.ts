// The page a person last had open on this device, so opening the console at "/" (or the
// installed app, whose start page is "/") returns there instead of always to Cluster. Only a
// path on this console is kept or followed, by the same rule as sign-in's `?next=`.
import { readDesk, writeDesk, type DeskStore } from "./desk-storage";
import { LANDING_PATH, safeReturnPath } from "../return-path";

const LAST_PAGE_NAME = "lastPage";

function isPagePath(value: unknown): value is string {
  return typeof value === "string" && value !== "/" && safeReturnPath(value) === value;
}

export function rememberLastPage(path: string, store?: DeskStore, userId?: string | null): void {
  if (isPagePath(path)) writeDesk(LAST_PAGE_NAME, path, store, userId);
}

/** Where "/" sends the signed-in person: their last page, or the landing page. */
export function lastPageOrLanding(store?: DeskStore, userId?: string | null): string {
  return readDesk(LAST_PAGE_NAME, isPagePath, LANDING_PATH, store, userId);
}
