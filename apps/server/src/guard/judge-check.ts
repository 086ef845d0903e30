// ctl guard judge check: three judgments one after another of a prompt about as long as a
// support ticket (about 280 tokens), then a burst at once, graded against the policies' budget.
import { judgeSpeed, type JudgeSpeed } from "@llmgw/domain";
import type { GuardJudgeCheck } from "@llmgw/api";
import type { Guard } from "./guard";

const TICKET =
  "Ticket 4711 from the support queue. The customer writes that the nightly export of the " +
  "billing reports stopped after the upgrade on Tuesday; the job starts, reads the first " +
  "partition and then waits until the scheduler kills it after two hours. They attached the " +
  "scheduler log, which shows the worker asking the storage service for a lease every thirty " +
  "seconds and getting a timeout each time. Nothing else changed on their side, they say, " +
  "although the storage nodes were moved to a new rack the same week. ";
/** About 280 tokens at four characters a token. */
const CHECK_PROMPT = TICKET.repeat(3).slice(0, 1_120);

const ADVICE: Record<JudgeSpeed, string> = {
  ok: "the judge keeps well within the budget; nothing to do",
  tight:
    "the judge answers within the budget but with little room: give it its own node (label llmgw.role=judge), more cores, or raise the policy's budget",
  slow: "the judge misses the budget, so fail: closed policies will refuse requests: serve a smaller judge, give it a faster node, or raise the budget",
};

export async function timeJudge(
  guard: Pick<Guard, "judgeOnce">,
  options: { model: string; budgetMs: number; burst: number; nowMs(): number },
): Promise<GuardJudgeCheck> {
  const { model, budgetMs, burst, nowMs } = options;
  // Each judgment begins with a line of its own, so an engine's prompt cache cannot flatter it.
  const timedOnce = async (n: number) => {
    const startedMs = nowMs();
    await guard.judgeOnce(model, `#${n} ${nowMs()}\n${CHECK_PROMPT}`, budgetMs * 4);
    return nowMs() - startedMs;
  };
  const singleMs: number[] = [];
  for (let n = 0; n < 3; n++) singleMs.push(await timedOnce(n));
  const burstStartedMs = nowMs();
  await Promise.all(Array.from({ length: burst }, (_, i) => timedOnce(3 + i)));
  const burstMs = Math.max(1, nowMs() - burstStartedMs);
  const speed = judgeSpeed(Math.max(...singleMs), budgetMs);
  return {
    ...{ model, budgetMs, singleMs, burst, burstMs },
    judgmentsPerSecond: Math.round((burst * 1_000 * 10) / burstMs) / 10,
    speed,
    advice: ADVICE[speed],
  };
}
