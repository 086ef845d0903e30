// Labels set in the store (`llmgw ctl label`) laid over those a node's agent reports: the store's
// win, so an operator can correct a node's location without touching its settings file.
import { labelKeyProblem, labelValueProblem } from "./domains";

export interface LabelEdit {
  /** Keys set in the store, with their values. */
  set: Record<string, string>;
  /** Keys whose store value is taken away, so the agent's own value (if any) shows again. */
  remove: string[];
}

/** `key=value` sets, `key-` removes; every problem is named, all at once. */
export function parseLabelEdit(
  words: readonly string[],
): { ok: true; edit: LabelEdit } | { ok: false; errors: string[] } {
  const edit: LabelEdit = { set: {}, remove: [] };
  const errors: string[] = [];
  for (const word of words) {
    const at = word.indexOf("=");
    if (at < 0 && word.endsWith("-")) {
      const key = word.slice(0, -1);
      const problem = labelKeyProblem(key);
      if (problem === undefined) edit.remove.push(key);
      else errors.push(problem);
      continue;
    }
    if (at < 0) {
      errors.push(`"${word}" is neither key=value (to set) nor key- (to remove)`);
      continue;
    }
    const key = word.slice(0, at);
    const value = word.slice(at + 1);
    const problem = labelKeyProblem(key) ?? labelValueProblem(key, value);
    if (problem === undefined) edit.set[key] = value;
    else errors.push(problem);
  }
  if (errors.length === 0 && Object.keys(edit.set).length + edit.remove.length === 0)
    errors.push("no labels given; write key=value to set or key- to remove");
  return errors.length > 0 ? { ok: false, errors } : { ok: true, edit };
}

/** The store's labels after an edit. */
export function applyLabelEdit(
  stored: Readonly<Record<string, string>>,
  edit: LabelEdit,
): Record<string, string> {
  const next: Record<string, string> = { ...stored, ...edit.set };
  for (const key of edit.remove) delete next[key];
  return next;
}

/** What placement and every view use: the agent's labels with the store's laid over them. */
export function effectiveLabels(
  agent: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return stored === undefined ? { ...agent } : { ...agent, ...stored };
}
