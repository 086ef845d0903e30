"use client";
// A refused change, in the control plane's own words (duplicate name, last admin, a unit that still
// holds others), right where it was asked for. Never swallowed: the section shows it until the next
// write of that section goes through.
import { useTranslation } from "react-i18next";
import { describeError } from "../../lib/errors";

export function ActionError({ error, testId }: { error: unknown; testId: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p className="form-error" role="alert" data-testid={testId}>
      {describeError(error, t)}
    </p>
  );
}
