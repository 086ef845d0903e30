// Consecutive start failures and parking per model, in memory and written through to
// `model_status`, because a restart must not forget that a model was parked.
import { messageOf } from "@llmgw/domain";
import { modelStatus, type Database } from "@llmgw/db";
import type { ModelHealth } from "@llmgw/domain";

export class ModelHealthBook {
  private readonly byName = new Map<string, ModelHealth>();
  private queue: Promise<void> = Promise.resolve();
  private mayWrite: () => Promise<boolean> = () => Promise.resolve(true);

  private constructor(
    private readonly db: Database,
    private readonly log: (line: string) => void,
  ) {}

  static async open(db: Database, log: (line: string) => void): Promise<ModelHealthBook> {
    const book = new ModelHealthBook(db, log);
    await book.reload();
    return book;
  }

  /** Replaces what is in memory with the store's rows (a standby following the leader). */
  async reload(): Promise<void> {
    await this.queue;
    const rows = await this.db.select().from(modelStatus);
    this.byName.clear();
    for (const { name, consecutiveFailures, isParked, lastError, revision, updatedAt } of rows) {
      // The row is written when a failure is counted: its time starts the failure backoff.
      const lastFailureAtMs = consecutiveFailures > 0 ? updatedAt.getTime() : null;
      this.byName.set(name, {
        ...{ name, consecutiveFailures, isParked, lastError, revision },
        lastFailureAtMs,
      });
    }
  }

  get(name: string): ModelHealth | undefined {
    return this.byName.get(name);
  }

  all(): ModelHealth[] {
    return [...this.byName.values()];
  }

  set(health: ModelHealth): Promise<void> {
    this.byName.set(health.name, health);
    const { name, consecutiveFailures, isParked, lastError, revision } = health;
    const updatedAt = new Date(health.lastFailureAtMs ?? Date.now());
    const row = { name, consecutiveFailures, isParked, lastError, revision, updatedAt };
    const run = this.queue
      .then(async () => {
        if (!(await this.mayWrite())) {
          this.log(
            `not saving the status of model ${health.name}: this control plane no longer leads`,
          );
          return;
        }
        await this.db
          .insert(modelStatus)
          .values(row)
          .onConflictDoUpdate({ target: modelStatus.name, set: row });
      })
      .catch((error: unknown) =>
        this.log(`could not save the status of model ${health.name}: ${messageOf(error)}`),
      );
    this.queue = run;
    return run;
  }

  /** Asked before each write: a control plane that lost the lease writes nothing. */
  guardWrites(mayWrite: () => Promise<boolean>): void {
    this.mayWrite = mayWrite;
  }

  /** A clean slate for a model: no failures, not parked, counted against `revision`. */
  reset(name: string, revision: number): Promise<void> {
    return this.set({ name, consecutiveFailures: 0, isParked: false, lastError: null, revision });
  }
}
