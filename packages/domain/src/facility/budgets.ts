// `facility.budgets`: the power cap of each facility domain, written in the server's settings as
// LLMGW_FACILITY_BUDGETS=rack=r12:5000,pdu=p7:12000 (domain, then watts).
import { formatDomain, parseDomain } from "./domains";

/** A domain (`rack=r12`) and the watts it may draw; the shape placement reads. */
interface DomainBudget {
  domain: string;
  watts: number;
}

/** Every budget in the text, or every problem with it named. */
export function parsePowerBudgets(
  text: string,
): { ok: true; budgets: DomainBudget[] } | { ok: false; errors: string[] } {
  const budgets: DomainBudget[] = [];
  const errors: string[] = [];
  for (const entry of text.split(",").map((part) => part.trim())) {
    if (entry === "") continue;
    const colon = entry.lastIndexOf(":");
    const domain = parseDomain(colon < 0 ? entry : entry.slice(0, colon));
    const watts = colon < 0 ? Number.NaN : Number(entry.slice(colon + 1));
    if (!domain.ok) errors.push(domain.error);
    else if (!Number.isFinite(watts) || watts <= 0)
      errors.push(`budget "${entry}" has no watts; write KIND=VALUE:WATTS such as rack=r12:5000`);
    else budgets.push({ domain: formatDomain(domain.domain), watts });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, budgets };
}
