// LoRA adapters, as vLLM takes them: `--enable-lora --lora-modules NAME=PATH [NAME=PATH …]`, each
// NAME then served as a model id of its own beside the base model (vLLM's documented behaviour).
// Simulated: nothing is read from PATH; an adapter only changes which words the reply picks, so a
// test can tell an adapter's answer from the base model's.

export interface SimLoraModule {
  name: string;
  path: string;
}

/**
 * Takes `--lora-modules` and the values after it (argparse's nargs="+", which node's parseArgs
 * cannot read) out of argv, leaving the rest for parseArgs.
 */
export function takeLoraModules(argv: readonly string[]): {
  rest: string[];
  specs: string[];
} {
  const rest: string[] = [];
  const specs: string[] = [];
  let isTaking = false;
  for (const arg of argv) {
    if (arg === "--lora-modules") {
      isTaking = true;
      continue;
    }
    if (isTaking && !arg.startsWith("--")) {
      specs.push(arg);
      continue;
    }
    isTaking = false;
    rest.push(arg);
  }
  return { rest, specs };
}

/** NAME=PATH, as vLLM reads it; the message says what was wrong. */
export function parseLoraModules(
  specs: readonly string[],
  isEnabled: boolean,
): SimLoraModule[] | string {
  if (specs.length > 0 && !isEnabled) return "--lora-modules needs --enable-lora";
  const modules: SimLoraModule[] = [];
  for (const spec of specs) {
    const at = spec.indexOf("=");
    if (at <= 0 || at === spec.length - 1)
      return `--lora-modules takes NAME=PATH; "${spec}" is not`;
    const name = spec.slice(0, at);
    if (modules.some((module) => module.name === name))
      return `--lora-modules names "${name}" twice`;
    modules.push({ name, path: spec.slice(at + 1) });
  }
  return modules;
}
