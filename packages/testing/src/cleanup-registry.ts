// One registry for everything a test starts (process groups, PostgreSQL servers, temp dirs), so a
// failing test cannot leave a server or a sleeping child behind. `cleanupAll()` is meant for
// `afterAll` (see vitest-setup.ts); the exit handler is the last resort and can only act synchronously.

export interface Resource {
  /** Shown in errors, e.g. `process "server" (pid 1234)`. */
  readonly name: string;
  /** Orderly shutdown; must be safe to call twice. */
  stop(): Promise<unknown>;
  /** Synchronous best effort used from the process `exit` handler, where nothing can be awaited. */
  killNow(): void;
}

export interface CleanupHandle {
  unregister(): void;
}

const liveResources = new Set<Resource>();
let isExitHandlerInstalled = false;

function killAllNow(): void {
  for (const resource of liveResources) {
    try {
      resource.killNow();
    } catch {
      // Exit-time cleanup is best effort: one stuck resource must not stop the others.
    }
  }
  liveResources.clear();
}

export function registerCleanup(resource: Resource): CleanupHandle {
  if (!isExitHandlerInstalled) {
    process.once("exit", killAllNow);
    isExitHandlerInstalled = true;
  }
  liveResources.add(resource);
  return { unregister: () => liveResources.delete(resource) };
}

/** Stops every registered resource, newest first; reports all failures together. */
export async function cleanupAll(): Promise<void> {
  const resources = [...liveResources].reverse();
  liveResources.clear();
  const results = await Promise.allSettled(resources.map((resource) => resource.stop()));
  const failures = results.flatMap((result, index) =>
    result.status === "rejected" ? [`${resources[index]?.name}: ${String(result.reason)}`] : [],
  );
  if (failures.length > 0) {
    throw new Error(`cleanup failed for ${failures.length} resource(s):\n${failures.join("\n")}`);
  }
}
