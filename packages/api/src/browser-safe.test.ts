// `@llmgw/api/schemas` is bundled into the console. Bundled for the browser here, it must hold no
// Node built-in (vite swaps those for an empty stub and the console fails at run time), no
// @trpc/server (it refuses to load in a browser) and none of the router's own modules.
import { fileURLToPath } from "node:url";
import { build, type Rollup } from "vite";
import { describe, expect, it } from "vitest";

const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

const SERVER_ONLY = [
  /^node:/,
  /__vite-browser-external/,
  /@trpc[/+]server/,
  /packages\/api\/src\/(root|trpc|context|internal-errors)\.ts$/,
  /\/router\.ts$/,
];

/** Every module and external import a browser bundle of `entry` holds. */
async function bundledModules(entry: string): Promise<string[]> {
  const result = await build({
    configFile: false,
    logLevel: "silent",
    root: PACKAGE_ROOT,
    build: {
      write: false,
      minify: false,
      lib: { entry, formats: ["es"], fileName: "bundle" },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const modules = outputs.flatMap((output) =>
    output.output.flatMap((chunk) =>
      chunk.type === "chunk" ? [...chunk.moduleIds, ...chunk.imports] : [],
    ),
  );
  return [...new Set(modules)];
}

function serverOnly(modules: string[]): string[] {
  return modules.filter((id) => SERVER_ONLY.some((pattern) => pattern.test(id)));
}

// Bundling parses zod, the domain package and every schema: seconds on a loaded 2-core machine.
const BUNDLE_TIMEOUT_MS = 120_000;

describe("@llmgw/api/schemas in a browser bundle", () => {
  it(
    "holds no Node built-in, no @trpc/server and no router module",
    async () => {
      const modules = await bundledModules("src/schemas.ts");
      expect(modules.some((id) => id.endsWith("src/events/schemas.ts"))).toBe(true);
      expect(serverOnly(modules)).toEqual([]);
    },
    BUNDLE_TIMEOUT_MS,
  );

  it(
    "names what a leaky entry pulls in, so the check above can fail",
    async () => {
      const found = serverOnly(await bundledModules("test/fixtures/leaky-entry.ts"));
      expect(found.some((id) => /node:crypto|__vite-browser-external/.test(id))).toBe(true);
      expect(found.some((id) => /@trpc[/+]server/.test(id))).toBe(true);
      expect(found.some((id) => id.endsWith("src/root.ts"))).toBe(true);
    },
    BUNDLE_TIMEOUT_MS,
  );
});
