// Engine command lines and environments end up in logs, `ctl logs` and the console; keys must not.
export const REDACTED = "[redacted]";

/** Replaces the value of each secret flag, in both `--flag value` and `--flag=value` forms. */
export function redactArgs(
  args: readonly string[],
  secretFlags: readonly string[] = ["--api-key"],
): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? "";
    const equals = arg.indexOf("=");
    const flag = equals === -1 ? arg : arg.slice(0, equals);
    if (!secretFlags.includes(flag)) {
      out.push(arg);
    } else if (equals !== -1) {
      out.push(`${flag}=${REDACTED}`);
    } else {
      out.push(arg);
      if (i + 1 < args.length) {
        out.push(REDACTED);
        i += 1;
      }
    }
  }
  return out;
}

/** A copy of `env` with the named variables' values replaced. */
export function redactEnv(
  env: Readonly<Record<string, string>>,
  secretNames: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    out[name] = secretNames.includes(name) ? REDACTED : value;
  return out;
}
