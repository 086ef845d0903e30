// The desk: what the console remembers of how a person left it on this device (the last page,
// split sizes, each table's sort and filter, which desktop notifications they want). Keys carry
// the signed-in person's id, so two people sharing a browser profile each find their own desk,
// and every read is checked, since a stored value may come from an older console or be corrupt.
import { readStored, writeStored } from "../preferences";

/** Where values are kept; localStorage in the browser, a map in the unit tests. */
export interface DeskStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const browserStore: DeskStore = { getItem: readStored, setItem: writeStored };

let deskUserId: string | null = null;

/** Set by the shell once auth.me answers; null while nobody is known (the sign-in page). */
export function setDeskUser(userId: string | null): void {
  deskUserId = userId;
}

/** The id is percent-encoded, so no id (`a:b`) can end where another person's key begins. */
export function deskKey(userId: string, name: string): string {
  return `llmgw.desk:${encodeURIComponent(userId)}:${name}`;
}

/**
 * The value stored under `name` for the signed-in person, when `accept` takes it; `fallback`
 * when nobody is signed in, nothing is stored, the JSON is broken or `accept` refuses it.
 */
export function readDesk<T>(
  name: string,
  accept: (value: unknown) => value is T,
  fallback: T,
  store: DeskStore = browserStore,
  userId: string | null = deskUserId,
): T {
  if (userId === null) return fallback;
  const raw = store.getItem(deskKey(userId, name));
  if (raw === null) return fallback;
  try {
    const parsed: unknown = JSON.parse(raw);
    return accept(parsed) ? parsed : fallback;
  } catch {
    return fallback;
  }
}

/** Keeps `value` for the signed-in person; without one there is no desk to keep it on. */
export function writeDesk(
  name: string,
  value: unknown,
  store: DeskStore = browserStore,
  userId: string | null = deskUserId,
): void {
  if (userId === null) return;
  store.setItem(deskKey(userId, name), JSON.stringify(value));
}

/** A raw-string store scoped to the person, for libraries that keep their own format. */
export function deskStringStore(store: DeskStore = browserStore): DeskStore {
  return {
    getItem: (key) => (deskUserId === null ? null : store.getItem(deskKey(deskUserId, key))),
    setItem: (key, value) => {
      if (deskUserId !== null) store.setItem(deskKey(deskUserId, key), value);
    },
  };
}
