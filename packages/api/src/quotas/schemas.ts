// Quotas per scope of the ownership tree (`ctl quota`, the Quotas page): what each org, team or
// project is guaranteed and limited to, and what it holds now. Amounts travel as the text
// `gpus=H100-80G:16,cores=64,memory=512GiB`; the server's parser is the only judge of them.
import { z } from "zod";
import { oneLine } from "../text";

export const quotaAmountsSchema = z.object({
  /** Cards per GPU class. */
  gpus: z.record(z.string(), z.number()),
  cores: z.number().optional(),
  memoryGb: z.number().optional(),
});

/** One resource of a scope: `gpus:H100-80G`, `cores` or `memory` (GiB). */
export const quotaLineSchema = z.object({
  resource: z.string(),
  /** Held by the scope's models' replicas and those of the scopes beneath it. */
  held: z.number(),
  guaranteed: z.number(),
  /** null: not limited. */
  limit: z.number().nullable(),
  /** Held beyond the guarantee. */
  borrowed: z.number(),
});
export type QuotaLine = z.infer<typeof quotaLineSchema>;

export const scopeQuotaViewSchema = z.object({
  scope: z.string(),
  /** The stored quota; null for a scope that holds something without one. */
  quota: z
    .object({
      guarantee: quotaAmountsSchema,
      limit: quotaAmountsSchema.nullable(),
      /** The same amounts as text, as `ctl quota set` takes them. */
      guaranteeText: z.string(),
      limitText: z.string().nullable(),
      /** ISO-8601. */
      updatedAt: z.string(),
      updatedBy: z.string(),
    })
    .nullable(),
  lines: z.array(quotaLineSchema),
  /** Some resource is held up to its limit: new replicas of the scope wait. */
  atLimit: z.boolean(),
});
export type ScopeQuotaView = z.infer<typeof scopeQuotaViewSchema>;

const scopeField = oneLine("scope")
  .trim()
  .min(1, "the scope is required; give org:NAME, team:NAME or project:NAME")
  .max(200);
const amountsField = (what: string) => oneLine(what).max(2_000, `${what} is too long`);

export const setQuotaInputSchema = z.object({
  scope: scopeField,
  /** Empty: guaranteed nothing (a quota with only a limit). */
  guarantee: amountsField("guarantee"),
  /** null or absent: not limited. */
  limit: amountsField("limit").nullable().optional(),
});
export type SetQuotaInput = z.infer<typeof setQuotaInputSchema>;

export const quotaScopeInputSchema = z.object({ scope: scopeField });
