// The guard reads one stage's texts for a caller: the rules first, then the policy's judge for
// what rules cannot see, then personal data redacted. A decision is audited and counted without
// the text itself. The judge is bound once the gateway (which can reach the fleet) exists.
import { auditLog, guardPolicies, type Database } from "@llmgw/db";
import {
  findInjection,
  messageOf,
  policiesFor,
  redactPii,
  type GuardPolicy,
  type GuardStage,
  type JudgeVerdict,
} from "@llmgw/domain";

/** Other control planes' policy changes are seen within this long. */
const POLICY_CACHE_MS = 5_000;

export type JudgeAsk = (model: string, text: string, budgetMs: number) => Promise<JudgeVerdict>;

export type GuardOutcome = "passed" | "redacted" | "withheld" | "refused" | "failed_open";

export interface GuardDecision {
  outcome: GuardOutcome;
  /** The texts to use: redacted where personal data was found, unchanged otherwise. */
  texts: string[];
  /** Why, in words without the text: the rule or the judge's reason, or the judge's failure. */
  reason: string;
  /** The policies that covered the caller at this stage. */
  policies: string[];
  /** How long the judges asked took, in all (absent when none was asked). */
  judgeMs?: number;
}

export type JudgmentOutcome = "allow" | "injection" | "failed";

export interface GuardDeps {
  db: Database;
  nowMs(): number;
  log(line: string): void;
}

export class Guard {
  private cached: { atMs: number; policies: GuardPolicy[] } | null = null;
  private mustReload = false;
  private refreshing: Promise<void> | null = null;
  private judge: JudgeAsk | null = null;
  private counters: ((stage: GuardStage, outcome: GuardOutcome, policy: string) => void)[] = [];
  private timers: ((model: string, outcome: JudgmentOutcome, seconds: number) => void)[] = [];

  constructor(private readonly deps: GuardDeps) {}

  bindJudge(ask: JudgeAsk): void {
    this.judge = ask;
  }

  onDecision(count: (stage: GuardStage, outcome: GuardOutcome, policy: string) => void): void {
    this.counters.push(count);
  }

  onJudgment(time: (model: string, outcome: JudgmentOutcome, seconds: number) => void): void {
    this.timers.push(time);
  }

  /** One judgment, for the judge check; throws when no judge is bound or it fails. */
  judgeOnce(model: string, text: string, budgetMs: number): Promise<JudgeVerdict> {
    if (!this.judge) throw new Error("no judge is bound");
    return this.judge(model, text, budgetMs);
  }

  /** The next request reads the policies from the store again, after a change made here. */
  policiesChanged(): void {
    this.mustReload = true;
  }

  /**
   * The policies, read from the store at most every 5 s. A request never waits on the store for
   * them once they were read: a stale copy is served while a fresh one is read, and kept when the
   * store is out of reach (a restart must not fail requests). Only the first read, and the one
   * after a change made here, is waited for.
   */
  async policies(): Promise<GuardPolicy[]> {
    const nowMs = this.deps.nowMs();
    const cached = this.cached;
    if (cached && !this.mustReload) {
      if (nowMs - cached.atMs >= POLICY_CACHE_MS && !this.refreshing)
        this.refreshing = this.loadPolicies(nowMs)
          .then(() => undefined)
          .catch((error: unknown) => {
            this.deps.log(`guard: policies kept from before; the store: ${messageOf(error)}`);
          })
          .finally(() => {
            this.refreshing = null;
          });
      return cached.policies;
    }
    try {
      this.mustReload = false;
      return await this.loadPolicies(nowMs);
    } catch (error) {
      if (!cached) throw error;
      this.deps.log(`guard: policies kept from before; the store: ${messageOf(error)}`);
      return cached.policies;
    }
  }

  private async loadPolicies(nowMs: number): Promise<GuardPolicy[]> {
    const rows = await this.deps.db.select().from(guardPolicies);
    const policies = rows.map((row) => ({
      ...row,
      stages: row.stages as GuardPolicy["stages"],
      checks: row.checks as GuardPolicy["checks"],
      fail: row.fail as GuardPolicy["fail"],
    }));
    this.cached = { atMs: nowMs, policies };
    return policies;
  }

  /**
   * The models the policies name as their judge, from the copy in memory (for placement, which
   * must not wait on the store); a stale copy is refreshed in the background.
   */
  judgeModels(): ReadonlySet<string> {
    void this.policies().catch(() => undefined);
    const policies = this.cached?.policies ?? [];
    return new Set(policies.flatMap((policy) => (policy.judgeModel ? [policy.judgeModel] : [])));
  }

  /** Whether any policy reads this stage for the caller, so callers can skip buffering. */
  async covers(stage: GuardStage, levels: readonly string[]): Promise<boolean> {
    return (await this.covering(stage, levels)).length > 0;
  }

  /** The policies that read this stage for the caller. */
  async covering(stage: GuardStage, levels: readonly string[]): Promise<GuardPolicy[]> {
    return policiesFor(await this.policies(), levels, stage);
  }

  async inspect(
    stage: GuardStage,
    who: { subject: string; levels: readonly string[]; requestId: string },
    texts: string[],
  ): Promise<GuardDecision> {
    const covering = policiesFor(await this.policies(), who.levels, stage);
    if (covering.length === 0) return { outcome: "passed", texts, reason: "", policies: [] };
    const timed = { judgeMs: 0, asked: false };
    const decision = await this.decide(covering, texts, timed);
    if (timed.asked) decision.judgeMs = timed.judgeMs;
    this.record(stage, who, decision);
    return decision;
  }

  private async decide(
    covering: GuardPolicy[],
    texts: string[],
    timed: { judgeMs: number; asked: boolean },
  ): Promise<GuardDecision> {
    const policies = covering.map((p) => p.name);
    const joined = texts.join("\n");
    let failedOpen = "";
    for (const policy of covering.filter((p) => p.checks.includes("injection"))) {
      const hit = findInjection(joined);
      if (hit) return { outcome: "withheld", texts, reason: `rule ${hit.rule}`, policies };
      if (!policy.judgeModel) continue;
      const startedMs = this.deps.nowMs();
      const judged = await this.askJudge(policy, joined);
      const tookMs = this.deps.nowMs() - startedMs;
      timed.judgeMs += tookMs;
      timed.asked = true;
      for (const time of this.timers) time(policy.judgeModel, judged.kind, tookMs / 1_000);
      if (judged.kind === "injection")
        return { outcome: "withheld", texts, reason: `judge: ${judged.reason}`, policies };
      if (judged.kind === "failed") {
        const reason = `judge ${policy.judgeModel}: ${judged.reason}`;
        if (policy.fail === "closed") return { outcome: "refused", texts, reason, policies };
        failedOpen = reason;
      }
    }
    const redacting = covering.some((p) => p.checks.includes("pii"));
    const redacted = redacting ? texts.map(redactPii) : [];
    const kinds = [...new Set(redacted.flatMap((r) => r.kinds))];
    if (failedOpen) {
      const out = redacting ? redacted.map((r) => r.text) : texts;
      return { outcome: "failed_open", texts: out, reason: failedOpen, policies };
    }
    if (kinds.length === 0) return { outcome: "passed", texts, reason: "", policies };
    const reason = `personal data: ${kinds.join(", ")}`;
    return { outcome: "redacted", texts: redacted.map((r) => r.text), reason, policies };
  }

  private async askJudge(
    policy: GuardPolicy,
    text: string,
  ): Promise<{ kind: "allow" } | { kind: "injection" | "failed"; reason: string }> {
    if (!this.judge || !policy.judgeModel) return { kind: "failed", reason: "no judge is bound" };
    try {
      const verdict = await this.judge(policy.judgeModel, text, policy.budgetMs);
      return verdict.isInjection
        ? { kind: "injection", reason: verdict.reason || "instructions found" }
        : { kind: "allow" };
    } catch (error) {
      return { kind: "failed", reason: messageOf(error) };
    }
  }

  private record(
    stage: GuardStage,
    who: { subject: string; requestId: string },
    decision: GuardDecision,
  ): void {
    for (const policy of decision.policies)
      for (const count of this.counters) count(stage, decision.outcome, policy);
    if (decision.outcome === "passed") return;
    this.deps.db
      .insert(auditLog)
      .values({
        at: new Date(this.deps.nowMs()),
        actor: who.subject,
        action: "guard.decision",
        target: stage,
        details: {
          outcome: decision.outcome,
          reason: decision.reason,
          policies: decision.policies,
          requestId: who.requestId,
          ...(decision.judgeMs === undefined ? {} : { judgeMs: decision.judgeMs }),
        },
      })
      .catch((error: unknown) => this.deps.log(`guard: could not audit: ${messageOf(error)}`));
  }
}
