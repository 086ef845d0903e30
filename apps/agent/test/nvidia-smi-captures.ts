// Reads the recorded nvidia-smi captures: each file holds sections headed
// `# <phase> :: <what>` and `# $ <command>`, followed by the command's raw output.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const CAPTURES_DIR = join(import.meta.dirname, "fixtures", "nvidia-smi");

export interface CaptureSection {
  phase: string;
  command: string;
  output: string;
}

export function listCaptureFiles(): string[] {
  return readdirSync(CAPTURES_DIR)
    .filter((name) => name.endsWith(".txt"))
    .sort();
}

export function readCaptureSections(file: string): CaptureSection[] {
  const lines = readFileSync(join(CAPTURES_DIR, file), "utf8").split("\n");
  const sections: CaptureSection[] = [];
  for (let i = 0; i < lines.length; i++) {
    const command = /^# \$ (.*)$/.exec(lines[i] ?? "")?.[1];
    if (command === undefined) continue;
    const phase = /^# (\S+) ::/.exec(lines[i - 1] ?? "")?.[1] ?? "";
    let end = i + 1;
    while (end < lines.length && (lines[end] ?? "").startsWith("#")) end++;
    const start = end;
    while (end < lines.length && !/^#{20,}/.test(lines[end] ?? "")) end++;
    sections.push({
      phase,
      command: command.trim(),
      output: lines.slice(start, end).join("\n").trim(),
    });
    i = end - 1;
  }
  return sections;
}

/** The `--query-gpu=... --format=csv` output of one phase (idle or load). */
export function queryGpuCsv(file: string, phase: "idle" | "load"): string {
  const section = readCaptureSections(file).find(
    (candidate) =>
      candidate.phase === phase && candidate.command.startsWith("nvidia-smi --query-gpu="),
  );
  if (section === undefined) throw new Error(`${file}: no ${phase} --query-gpu section`);
  return section.output;
}
