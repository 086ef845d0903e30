// Checks a form's input against a zod schema before it is sent, so a plain mistake is named at once
// instead of after a round trip. The control plane checks again with the same schema; this only
// saves the trip.
import type { z } from "zod";

export type InputCheck<Input> = { ok: true; input: Input } | { ok: false; problems: string[] };

/** One line per problem, led by the field it is about ("models.0: Too small…"). */
export function validateInput<Input>(
  schema: z.ZodType<Input> | undefined,
  input: Input,
): InputCheck<Input> {
  if (!schema) return { ok: true, input };
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, input: result.data };
  const problems = result.error.issues.map((issue) =>
    issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ${issue.message}` : issue.message,
  );
  return { ok: false, problems };
}
