// Lint what matters (style.md rule 12): promises that are dropped or misused, type-only imports,
// the import boundaries between web, domain and the database, and process.env outside config files.
// Type-aware rules read each package's own tsconfig.json through the typescript-eslint project service.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

const rootDir = import.meta.dirname;
const TS_FILES = ["**/*.{ts,tsx,mts,cts}"];
const TEST_FILES = ["**/*.test.{ts,tsx}", "e2e/**", "packages/testing/**", "bench/**"];

// Node's globals for the plain JavaScript files (bins, configs, scripts); this avoids a dependency
// on the `globals` package for a dozen names.
const NODE_GLOBALS = Object.fromEntries(
  [
    "process console Buffer URL URLSearchParams fetch AbortController AbortSignal TextEncoder",
    "TextDecoder structuredClone performance queueMicrotask setTimeout clearTimeout setInterval",
    "clearInterval setImmediate clearImmediate",
  ]
    .join(" ")
    .split(" ")
    .map((name) => [name, "readonly"]),
);

// A workspace folder without a tsconfig.json cannot be type-checked (neither by `tsc` nor here), so
// its TypeScript files get the syntax-only rules instead of failing to parse. Add a tsconfig.json
// to the folder to turn the type-aware rules on.
const foldersWithoutTsconfig = ["apps", "packages"]
  .flatMap((parent) =>
    existsSync(join(rootDir, parent))
      ? readdirSync(join(rootDir, parent), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${parent}/${entry.name}`)
      : [],
  )
  .concat(["e2e", "bench"])
  .filter((folder) => !existsSync(join(rootDir, folder, "tsconfig.json")));

// Imported with or without the `node:` prefix; subpaths such as fs/promises are covered too.
const NODE_IO_MODULES = [
  "fs net http https http2 child_process dgram dns tls",
  "cluster worker_threads readline os process inspector",
]
  .join(" ")
  .split(" ");

// Matches each module and its subpaths by exact name; gitignore-style `group` patterns would also
// catch relative imports such as "./process".
function importPattern(modules, message) {
  const alternatives = modules.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  return { regex: `^(?:${alternatives})(?:/.*)?$`, message };
}

function restrictImports(modules, message, ...extraPatterns) {
  return ["error", { patterns: [importPattern(modules, message), ...extraPatterns] }];
}

// Import boundaries between workspace packages: a package is a library for the apps, never the
// other way round, and the agent runs on GPU nodes where no database exists.
const NO_APPS_IN_PACKAGES = importPattern(
  ["@llmgw/server", "@llmgw/agent", "@llmgw/web"],
  "Packages are libraries for the apps; an app's code that a package needs moves into a package.",
);
const NO_RELATIVE_APPS = {
  regex: "^(?:\\.\\./)+apps/",
  message: "Import a workspace package by its name; packages never reach into apps/.",
};
const WEB_BROWSER_FORBIDDEN = [
  "@llmgw/db",
  "@llmgw/server",
  "@llmgw/agent",
  "@llmgw/cli",
  "@llmgw/testing",
  "@llmgw/sim-engine",
  "postgres",
  "@electric-sql/pglite",
  "drizzle-orm",
  "ws",
  "node:child_process",
  "child_process",
];

// Rules added by issue 13 that the branches being rewritten in parallel (server, web, api, cli,
// e2e) have not yet been brought under.
const ISSUE_13_RULES = {
  "@typescript-eslint/no-non-null-assertion": "error",
  "@typescript-eslint/no-unnecessary-type-assertion": "error",
  "@typescript-eslint/only-throw-error": "error",
  "@typescript-eslint/prefer-promise-reject-errors": "error",
  "@typescript-eslint/no-base-to-string": "error",
  "import-x/no-cycle": ["error", { ignoreExternal: true }],
};

export default defineConfig([
  globalIgnores([
    "**/node_modules/",
    "**/.next/",
    "**/dist/",
    "**/coverage/",
    "**/playwright-report/",
    "**/test-results/",
    "**/next-env.d.ts",
    ".pnpm-store/",
    ".llmgw/",
    "drizzle/",
    "packages/proto/src/gen/",
  ]),
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  {
    files: ["**/*.{js,mjs,cjs}"],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: NODE_GLOBALS },
  },
  { files: ["**/*.cjs"], languageOptions: { sourceType: "commonjs" } },
  {
    files: TS_FILES,
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { "import-x": importX },
    settings: {
      // no-cycle parses each imported file too; without this it reads TypeScript as JavaScript and
      // silently finds no imports.
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts", ".cts"] },
      "import-x/resolver-next": [
        createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".mjs"] }),
      ],
    },
    languageOptions: {
      parserOptions: {
        // Root-level TypeScript files (tool configs) and the scripts' type declarations belong to no
        // package; they borrow the base options.
        projectService: {
          allowDefaultProject: ["*.ts", "*.mts", "scripts/*.d.mts"],
          defaultProject: "tsconfig.base.json",
        },
        tsconfigRootDir: rootDir,
      },
    },
    rules: {
      ...ISSUE_13_RULES,
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-explicit-any": "warn",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "no-restricted-properties": [
        "error",
        {
          object: "process",
          property: "env",
          message:
            "Parse the environment in config.ts / server-config.ts and pass the value down (style.md rule 5).",
        },
      ],
    },
  },
  {
    files: [
      ...TEST_FILES,
      "**/config.ts",
      "**/server-config.ts",
      "**/*.config.{ts,mts}",
      "scripts/**",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // TypeScript only: the console's one plain script, public/sw.js, runs in a service worker and
    // imports nothing.
    files: ["apps/web/**/*.{ts,tsx,mts,cts}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports(
        WEB_BROWSER_FORBIDDEN,
        "The console reaches data only through tRPC and ships to browsers: no database, no node-only packages (style.md rule 6).",
      ),
    },
  },
  {
    files: ["apps/agent/**/*.{ts,tsx,mts,cts}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports(
        [
          "@llmgw/db",
          "@llmgw/server",
          "@llmgw/web",
          "drizzle-orm",
          "postgres",
          "@electric-sql/pglite",
        ],
        "The agent runs on GPU nodes and speaks only the protobuf protocol; it never opens the database (style.md rule 6).",
      ),
    },
  },
  {
    files: ["packages/**/*.{ts,tsx,mts,cts}"],
    ignores: ["packages/domain/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [NO_APPS_IN_PACKAGES, NO_RELATIVE_APPS] },
      ],
    },
  },
  {
    files: ["packages/domain/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": restrictImports(
        [
          ...NODE_IO_MODULES.flatMap((name) => [name, `node:${name}`]),
          "ws",
          "postgres",
          "@electric-sql/pglite",
          "@llmgw/db",
          "drizzle-orm",
          "undici",
        ],
        "packages/domain is the functional core: pure functions of their inputs; I/O lives in the apps (style.md rule 1).",
        NO_APPS_IN_PACKAGES,
        NO_RELATIVE_APPS,
      ),
    },
  },
  {
    files: ["packages/domain/**"],
    ignores: TEST_FILES,
    rules: {
      "no-restricted-syntax": [
        "warn",
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message:
            "Take `nowMs` as an input; the domain is a pure function of it (style.md rule 1).",
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message:
            "Take `nowMs` as an input; the domain is a pure function of it (style.md rule 1).",
        },
        {
          selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']",
          message:
            "Inject randomness (a seeded generator) so simulations replay (style.md rule 5).",
        },
      ],
    },
  },
  // ESLint rejects an empty `files` list, so the block exists only while some folder needs it.
  ...(foldersWithoutTsconfig.length === 0
    ? []
    : [
        {
          files: foldersWithoutTsconfig.map((folder) => `${folder}/**/*.{ts,tsx,mts,cts}`),
          extends: [tseslint.configs.disableTypeChecked],
        },
      ]),
]);
