// Asks a judge model from the catalog through the gateway's own routing (breakers, least loaded
// replica first), with the policy's budget as a hard deadline: a judge that cannot answer in time
// is a failed judgment, which the policy's fail: closed/open then decides. The answer is held to
// the verdict's shape by the engine where it can (see judgeConstraint).
import { randomUUID } from "node:crypto";
import {
  judgeConstraint,
  judgeRequestBody,
  parseJudgeVerdict,
  type JudgeVerdict,
} from "@llmgw/domain";
import { firstAcceptableAnswer, settle, type ForwardDeps } from "../gateway/attempts";
import { GatewayError } from "../gateway/errors";

export function judgeAsker(deps: ForwardDeps) {
  return async (model: string, text: string, budgetMs: number): Promise<JudgeVerdict> => {
    const signal = AbortSignal.timeout(budgetMs);
    const job = {
      model,
      path: "/v1/chat/completions",
      method: "POST" as const,
      body: Buffer.from(JSON.stringify(judgeRequestBody(model, text))),
      // Each engine is held to the verdict's shape its own way (a grammar, a JSON schema).
      bodyFor: (endpoint: { engine: string }) =>
        Buffer.from(
          JSON.stringify({ ...judgeRequestBody(model, text), ...judgeConstraint(endpoint.engine) }),
        ),
      requestId: `guard-${randomUUID()}`,
      accept: "application/json",
      signal,
      dropsUsageChunk: false,
    };
    const noEndpoint = () =>
      new GatewayError(503, `no replica of ${model} is ready`, "service_unavailable", "no_judge");
    try {
      const answer = await firstAcceptableAnswer(deps, job, noEndpoint);
      const { result } = answer;
      const body = await result.body.text().finally(() => {
        if (!answer.isSettled) settle(deps, answer.endpoint, result.status);
      });
      if (result.status !== 200) throw new Error(`the judge answered ${result.status}`);
      const content = (JSON.parse(body) as { choices?: { message?: { content?: unknown } }[] })
        .choices?.[0]?.message?.content;
      if (typeof content !== "string") throw new Error("the judge's answer holds no message");
      return parseJudgeVerdict(content);
    } catch (error) {
      if (signal.aborted) throw new Error(`no verdict within ${budgetMs} ms`);
      if (error instanceof GatewayError) throw new Error(error.message);
      // These reasons reach the caller's refusal: our own sentences only, never a parser's.
      if (error instanceof SyntaxError) throw new Error("the judge's answer is not JSON");
      throw error;
    }
  };
}
