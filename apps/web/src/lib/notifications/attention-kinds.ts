// Which fleet events may become a desktop notification, grouped into the kinds a person chooses
// on Your account, and how a batch of new events becomes one notification: a storm (ten nodes
// going away at once) is one "10 nodes unreachable", never ten pop-ups.
import type { EventKind, EventView } from "@llmgw/api";

/** Each choosable kind and the event kinds it covers. */
const NOTIFY_KINDS = {
  nodeUnreachable: ["node.unreachable", "node.lost"],
  modelParked: ["model.parked", "model.unplaceable"],
  engineFailed: ["replica.failed"],
  certificateExpiring: ["certificate.expiring"],
} as const satisfies Record<string, readonly EventKind[]>;

export type NotifyKind = keyof typeof NOTIFY_KINDS;
export const NOTIFY_KIND_NAMES = Object.keys(NOTIFY_KINDS) as NotifyKind[];

export function isNotifyKindList(value: unknown): value is NotifyKind[] {
  return (
    Array.isArray(value) && value.every((kind) => (NOTIFY_KIND_NAMES as unknown[]).includes(kind))
  );
}

/** The event kinds to ask the events feed for, given the kinds a person chose. */
export function eventKindsFor(chosen: readonly NotifyKind[]): EventKind[] {
  return chosen.flatMap((kind) => [...NOTIFY_KINDS[kind]]);
}

function notifyKindOf(kind: EventKind): NotifyKind | null {
  return (
    NOTIFY_KIND_NAMES.find((name) => (NOTIFY_KINDS[name] as readonly string[]).includes(kind)) ??
    null
  );
}

/** One kind's share of a batch: how many distinct subjects, and one of them to name. */
interface NotifyGroup {
  kind: NotifyKind;
  count: number;
  /** The subject named when the group has one (a node's or model's name). */
  example: string;
}

/** What one notification says: the groups of its batch, largest first, and the newest id. */
export interface NotificationPlan {
  groups: NotifyGroup[];
  newestId: number;
}

function subjectName(event: Pick<EventView, "subjectId" | "params">): string {
  const { node, model } = event.params;
  if (typeof node === "string") return node;
  if (typeof model === "string") return model;
  return event.subjectId;
}

/**
 * One notification for the events newer than `afterId` of the chosen kinds, or null when there
 * are none. A subject counts once per kind (a node first unreachable then lost is one node).
 */
export function planNotification(
  events: readonly Pick<EventView, "id" | "kind" | "subjectId" | "params">[],
  afterId: number,
  chosen: readonly NotifyKind[],
): NotificationPlan | null {
  const subjects = new Map<NotifyKind, Set<string>>();
  let newestId = afterId;
  for (const event of events) {
    if (event.id <= afterId) continue;
    newestId = Math.max(newestId, event.id);
    const kind = notifyKindOf(event.kind);
    if (kind === null || !chosen.includes(kind)) continue;
    const names = subjects.get(kind) ?? new Set<string>();
    names.add(subjectName(event));
    subjects.set(kind, names);
  }
  if (subjects.size === 0) return null;
  const groups = [...subjects].map(([kind, names]) => ({
    kind,
    count: names.size,
    example: [...names].sort()[0] ?? "",
  }));
  groups.sort((a, b) => b.count - a.count || a.kind.localeCompare(b.kind));
  return { groups, newestId };
}
