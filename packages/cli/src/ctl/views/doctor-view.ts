// How a doctor report reads in a terminal, for `llmgw doctor` on a node and `llmgw ctl doctor NODE`
// alike: one aligned row per check, then what to do for each check that did not pass.
import { renderTable } from "../table";

interface CheckLine {
  id: string;
  status: "pass" | "warn" | "fail";
  summary: string;
  fix: string;
}

export function doctorText(title: string, checks: readonly CheckLine[]): string {
  const rows = checks.map((check) => [check.status.toUpperCase(), check.id, check.summary]);
  const todo = checks
    .filter((check) => check.status !== "pass" && check.fix !== "")
    .map((check) => `  ${check.id}: ${check.fix}`);
  const counts = (["fail", "warn", "pass"] as const)
    .map((status) => `${checks.filter((check) => check.status === status).length} ${status}`)
    .join(", ");
  return [
    `${title}: ${counts}\n`,
    renderTable(["STATUS", "CHECK", "FOUND"], rows),
    todo.length === 0 ? "" : `\nwhat to do:\n${todo.join("\n")}\n`,
  ].join("");
}
