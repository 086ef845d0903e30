// The GPU engine build per node, from the console: an admin picks "none" on a node's page and sees
// the node apply it (vLLM no longer offered), reads it in Turkish, and sets it back to auto; an
// operator sees the choice but cannot change it, and is shown no model sizing buttons.
// Screenshots land in e2e/artifacts/.
import { expect, test, type Page } from "@playwright/test";
import { adminApi, seed } from "./factories";
import { ARTIFACTS, devFacts } from "./facts";
import { chooseLanguage, openConsole, SIGNED_OUT } from "./session";

let nodeId = "";

async function restore() {
  if (nodeId) await adminApi().nodes.engineBuild.mutate({ id: nodeId, build: "auto" });
}

test.beforeAll(async () => {
  const nodes = await adminApi().nodes.list.query();
  // A node with cards: auto resolves to a CUDA build there, none withholds its vLLM.
  const node = nodes.find((candidate) => candidate.gpus.length > 0);
  if (!node) throw new Error("llmgw dev started no node with cards");
  nodeId = node.id;
  await restore();
});

test.afterAll(restore);

async function openNode(page: Page) {
  await page.getByTestId("nav-nodes").click();
  const row = page.locator(`[data-testid="node-row"][data-node-id="${nodeId}"]`);
  await row.getByTestId("node-link").click();
  await expect(page.getByTestId("node-detail")).toBeVisible();
}

test("an admin chooses a node's engine build and sees it applied", async ({ page }) => {
  await openConsole(page);
  await openNode(page);
  const panel = page.getByTestId("node-engine-build");
  await expect(panel.getByTestId("engine-build-applied")).toHaveAttribute("data-build", "cu13");
  await panel.getByTestId("engine-build-select").selectOption("none");
  await panel.getByTestId("engine-build-save").click();
  await expect(panel).toHaveAttribute("data-choice", "none");
  await expect(panel.getByTestId("engine-build-applied")).toHaveAttribute("data-build", "none");
  await expect(panel.getByTestId("engine-build-withheld")).toContainText("vllm");
  await expect(panel).toContainText(`chosen by ${devFacts().adminUser}`);
  await page.screenshot({ path: `${ARTIFACTS}/engine-build-en.png`, fullPage: true });

  await chooseLanguage(page, "tr");
  await expect(panel.getByRole("heading")).toHaveText("GPU motoru derlemesi");
  await expect(panel.getByTestId("engine-build-withheld")).toContainText("sunulmayan: vllm");
  await chooseLanguage(page, "en");

  await panel.getByTestId("engine-build-select").selectOption("auto");
  await panel.getByTestId("engine-build-save").click();
  await expect(panel.getByTestId("engine-build-applied")).toHaveAttribute("data-build", "cu13");
});

test("an operator sees the engine build but cannot change it, nor size models", async ({
  browser,
}) => {
  await seed.person({ username: "olga", password: "operator-pass-1", role: "operator" });
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  try {
    await page.goto(`${devFacts().consoleUrl}/sign-in`);
    await page.getByTestId("signin-username").fill("olga");
    await page.getByTestId("signin-password").fill("operator-pass-1");
    await page.getByTestId("signin-submit").click();
    await expect(page).toHaveURL(/\/cluster$/);
    await openNode(page);
    const panel = page.getByTestId("node-engine-build");
    await expect(panel).toHaveAttribute("data-choice", "auto");
    await expect(panel.getByTestId("engine-build-select")).toBeDisabled();
    await expect(panel.getByTestId("engine-build-save")).toBeDisabled();
    // Sizing a model is for admins too (the server refuses an operator): no buttons to press.
    await page.getByTestId("nav-models").click();
    await expect(page.getByTestId("model-remove").first()).toBeVisible();
    await expect(page.getByTestId("model-sizing-gpus")).toHaveCount(0);
    await expect(page.getByTestId("model-sizing-resources")).toHaveCount(0);
  } finally {
    await context.close();
  }
});
