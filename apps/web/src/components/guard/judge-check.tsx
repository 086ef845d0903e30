"use client";
// The judge check on /admin/guard: the same timing as `llmgw ctl guard judge check`, with the
// same grade and advice, shown when an administrator asks for it (it sends a dozen judgments).
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";
import { useTRPC } from "../../trpc/react";

export function JudgeCheck() {
  const { t, i18n } = useTranslation("guard");
  const { t: tc } = useTranslation();
  const trpc = useTRPC();
  const check = useMutation(trpc.guard.judge.check.mutationOptions());
  const ms = (value: number) => t("budgetMs", { value: value.toLocaleString(i18n.language) });
  return (
    <div className="panel" data-testid="guard-judge-check">
      <h2>{t("judgeCheck.title")}</h2>
      <p className="muted">{t("judgeCheck.intro")}</p>
      <button
        type="button"
        className="control"
        disabled={check.isPending}
        onClick={() => check.mutate({})}
        data-testid="guard-judge-check-run"
      >
        {check.isPending ? t("judgeCheck.running") : t("judgeCheck.run")}
      </button>
      {check.isError ? (
        <p className="form-error" role="alert">
          {describeError(check.error, tc)}
        </p>
      ) : null}
      {check.data ? (
        <dl data-testid="guard-judge-check-result">
          <dt>{t("judgeCheck.grade")}</dt>
          <dd data-speed={check.data.speed}>
            {t("judgeCheck.gradeValue", {
              model: check.data.model,
              speed: t(`speed.${check.data.speed}`),
              budget: ms(check.data.budgetMs),
            })}
          </dd>
          <dt>{t("judgeCheck.single")}</dt>
          <dd>{check.data.singleMs.map(ms).join(", ")}</dd>
          <dt>{t("judgeCheck.burst", { count: check.data.burst })}</dt>
          <dd>
            {t("judgeCheck.burstValue", {
              time: ms(check.data.burstMs),
              rate: check.data.judgmentsPerSecond.toLocaleString(i18n.language),
            })}
          </dd>
          <dt>{t("judgeCheck.advice")}</dt>
          <dd>{t(`advice.${check.data.speed}`)}</dd>
        </dl>
      ) : null}
    </div>
  );
}
