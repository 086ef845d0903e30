// What a person chose on Your account about desktop notifications, kept on their desk (per person
// and device), and the browser's permission. Both can change in another window or on the account
// page while the shell's watcher runs, so changes are announced with a window event.
import { readDesk, writeDesk } from "../desk/desk-storage";
import { isNotifyKindList, NOTIFY_KIND_NAMES, type NotifyKind } from "./attention-kinds";

const CHOICE_NAME = "notify.kinds";
const LAST_NOTIFIED_NAME = "notify.lastEventId";
export const NOTIFY_CHANGED_EVENT = "llmgw:notify-changed";

export type NotifyPermission = NotificationPermission | "unsupported";

export function notifyPermission(): NotifyPermission {
  return typeof window === "undefined" || !("Notification" in window)
    ? "unsupported"
    : window.Notification.permission;
}

/** Asks the browser (only ever from a click on Your account) and says what it answered. */
export async function askNotifyPermission(): Promise<NotifyPermission> {
  if (notifyPermission() === "unsupported") return "unsupported";
  const answer = await window.Notification.requestPermission();
  window.dispatchEvent(new Event(NOTIFY_CHANGED_EVENT));
  return answer;
}

/** Every kind is chosen until the person turns some off. */
export function chosenNotifyKinds(): NotifyKind[] {
  return readDesk(CHOICE_NAME, isNotifyKindList, [...NOTIFY_KIND_NAMES]);
}

export function chooseNotifyKinds(kinds: readonly NotifyKind[]): void {
  writeDesk(CHOICE_NAME, kinds);
  window.dispatchEvent(new Event(NOTIFY_CHANGED_EVENT));
}

function isEventId(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0;
}

/** The newest event some window of this console already notified about (windows share it). */
export function lastNotifiedEventId(): number {
  return readDesk(LAST_NOTIFIED_NAME, isEventId, 0);
}

export function rememberNotifiedEventId(id: number): void {
  writeDesk(LAST_NOTIFIED_NAME, id);
}
