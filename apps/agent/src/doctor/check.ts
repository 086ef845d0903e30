// What one doctor check says: pass, warn or fail, what it found, and what to do about it. The same
// shape travels in DoctorReply, so `llmgw doctor` on a node and `llmgw ctl doctor NODE` print alike.

export type CheckStatus = "pass" | "warn" | "fail";

export interface DoctorCheck {
  /** Stable name for scripts: "gpu.driver", "pcie.0000:2a:00.0", "disk.cache", … */
  id: string;
  status: CheckStatus;
  /** What was found, in a sentence. */
  summary: string;
  /** What to do; empty when nothing needs doing. */
  fix: string;
}

const RANK: Record<CheckStatus, number> = { pass: 0, warn: 1, fail: 2 };

/** The worst status among the checks: one failure makes the whole report fail. */
export function worstStatus(checks: readonly DoctorCheck[]): CheckStatus {
  return checks.reduce<CheckStatus>(
    (worst, check) => (RANK[check.status] > RANK[worst] ? check.status : worst),
    "pass",
  );
}

export function pass(id: string, summary: string): DoctorCheck {
  return { id, status: "pass", summary, fix: "" };
}
