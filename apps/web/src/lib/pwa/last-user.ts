// Who was signed in on this browser, as auth.me last answered, so the shell can stand (named,
// with the banner saying the control plane is out of reach) when the console opens while the
// control plane is down. It holds only what the person's own top bar shows; signing out or an
// ended session removes it.
import { userViewSchema, type UserView } from "@llmgw/api/schemas";
import { forgetReturnPath } from "../desk/return-cookie";
import { readStored, STORAGE_KEYS, writeStored } from "../preferences";

export function rememberLastUser(user: UserView): void {
  writeStored(STORAGE_KEYS.lastUser, JSON.stringify(user));
}

export function lastUser(): UserView | null {
  const raw = readStored(STORAGE_KEYS.lastUser);
  if (raw === null) return null;
  try {
    const parsed = userViewSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Signing out or an ended session: the browser no longer knows who, nor where "/" returns to. */
export function forgetLastUser(): void {
  forgetReturnPath();
  try {
    window.localStorage.removeItem(STORAGE_KEYS.lastUser);
  } catch {
    // Storage refused: nothing was kept there either.
  }
}
