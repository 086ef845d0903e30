// The shell's watcher for events that need attention: while the person allowed notifications and
// chose some kinds, it polls the events feed and turns each batch of new events into one desktop
// notification (see planNotification). A window that opens notifies nothing from before it
// opened, and windows of one console share the newest id notified, so an event pops up once.
import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  eventKindsFor,
  planNotification,
  type NotificationPlan,
} from "../lib/notifications/attention-kinds";
import {
  chosenNotifyKinds,
  lastNotifiedEventId,
  notifyPermission,
  NOTIFY_CHANGED_EVENT,
  rememberNotifiedEventId,
} from "../lib/notifications/notify-choice";
import { useTRPC } from "../trpc/react";

const NOTIFY_POLL_INTERVAL_MS = 5000;
const NOTIFY_PAGE_SIZE = 100;

/** The choice and the permission, read again whenever either changes here or in another window. */
function useNotifySettings() {
  const [settings, setSettings] = useState(() => ({
    permission: notifyPermission(),
    kinds: chosenNotifyKinds(),
  }));
  useEffect(() => {
    const reread = () =>
      setSettings({ permission: notifyPermission(), kinds: chosenNotifyKinds() });
    window.addEventListener(NOTIFY_CHANGED_EVENT, reread);
    window.addEventListener("storage", reread);
    return () => {
      window.removeEventListener(NOTIFY_CHANGED_EVENT, reread);
      window.removeEventListener("storage", reread);
    };
  }, []);
  return settings;
}

function useNotificationWords() {
  const { t } = useTranslation();
  return useCallback(
    (plan: NotificationPlan): { title: string; body: string } => {
      const lines = plan.groups.map((group) =>
        t(`notifications.group.${group.kind}`, { count: group.count, name: group.example }),
      );
      if (lines.length === 1) return { title: lines[0] ?? "", body: t("notifications.open") };
      const total = plan.groups.reduce((sum, group) => sum + group.count, 0);
      return { title: t("notifications.several", { count: total }), body: lines.join("\n") };
    },
    [t],
  );
}

/** `isSignedIn`: only a session the control plane confirmed polls (not a window on its last user). */
export function useDesktopNotifications(isSignedIn: boolean): void {
  const trpc = useTRPC();
  const router = useRouter();
  const { permission, kinds } = useNotifySettings();
  const words = useNotificationWords();
  const baselineId = useRef<number | null>(null);
  const isOn = isSignedIn && permission === "granted" && kinds.length > 0;
  const feed = useQuery(
    trpc.events.list.queryOptions(
      { kinds: eventKindsFor(kinds), limit: NOTIFY_PAGE_SIZE },
      { enabled: isOn, refetchInterval: NOTIFY_POLL_INTERVAL_MS },
    ),
  );
  const events = feed.data?.events;
  useEffect(() => {
    if (!isOn || !events) return;
    const newestSeen = events.reduce((max, event) => Math.max(max, event.id), 0);
    // The first answer is the past: it sets where this window starts counting.
    if (baselineId.current === null) {
      baselineId.current = Math.max(newestSeen, lastNotifiedEventId());
      return;
    }
    const afterId = Math.max(baselineId.current, lastNotifiedEventId());
    const plan = planNotification(events, afterId, kinds);
    baselineId.current = Math.max(afterId, newestSeen);
    if (!plan) return;
    rememberNotifiedEventId(plan.newestId);
    const { title, body } = words(plan);
    const notification = new window.Notification(title, {
      body,
      tag: `llmgw-attention-${plan.newestId}`,
      icon: "/icons/icon-192.png",
    });
    notification.onclick = () => {
      window.focus();
      router.push("/events");
    };
  }, [events, isOn, kinds, router, words]);
}
