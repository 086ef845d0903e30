// Leadership as the reconciler sees it, and what a control plane does on each side of it. A
// standby reads the store on a timer (the leader's placements, the catalog, model health), so
// its `/v1` routes to the replicas the leader placed. A process that takes over reads the store
// once more before it plans anything: its standby view may be up to one refresh old.
import { messageOf } from "@llmgw/domain";
import type { Leadership } from "../reconcile/deps";

export interface LeadershipSource {
  isLeader(): boolean;
  confirm(): Promise<boolean>;
  onChange(listener: (leading: boolean) => void): () => void;
}

export interface StandbyOptions {
  source: LeadershipSource;
  /** Reads everything the reconciler plans from out of the store again. */
  reload(): Promise<void>;
  /** Called once the new leader's view is fresh: mark every model for a pass. */
  tookOver(): void;
  refreshMs: number;
  log(line: string): void;
}

export interface FollowingLeadership extends Leadership {
  stop(): void;
}

/** Leads only once the takeover's reload is done; follows the store while standing by. */
export function followLeadership(options: StandbyOptions): FollowingLeadership {
  const { source, log } = options;
  let isFresh = source.isLeader();
  let reloading: Promise<boolean> | undefined;
  let retry: NodeJS.Timeout | undefined;
  const reload = (why: string): Promise<boolean> =>
    (reloading ??= options
      .reload()
      .then(() => true)
      .catch((error: unknown) => {
        log(`${why}: could not read the store (${messageOf(error)})`);
        return false;
      })
      .finally(() => (reloading = undefined)));

  const takeOver = async (): Promise<void> => {
    // A refresh in flight may have started before we led; read again after it.
    await reloading;
    const isRead = await reload("taking over");
    if (!source.isLeader() || isFresh) return;
    if (!isRead) {
      retry = setTimeout(() => void takeOver(), options.refreshMs);
      return;
    }
    isFresh = true;
    options.tookOver();
  };

  const unsubscribe = source.onChange((leading) => {
    isFresh = false;
    if (leading) void takeOver();
  });
  const timer = setInterval(() => {
    if (!source.isLeader()) void reload("following the leader");
  }, options.refreshMs);
  timer.unref();

  return {
    isLeader: () => isFresh && source.isLeader(),
    confirm: async () => isFresh && (await source.confirm()),
    stop() {
      unsubscribe();
      clearTimeout(retry);
      clearInterval(timer);
    },
  };
}
