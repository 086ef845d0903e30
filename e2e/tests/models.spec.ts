// The catalog in a real browser: the presets `llmgw dev` adds become ready, a model is removed and
// added back from the Presets tab, a bad definition is refused line by line, and the page reads in
// Turkish. Screenshots land in e2e/artifacts/. Every test starts from the saved admin session and
// leaves the catalog as it found it (sim-chat and sim-gpu-chat present), so the order of tests
// does not matter.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ARTIFACTS } from "./facts";
import { chooseLanguage, openConsole } from "./session";

const DEV_MODELS = ["sim-chat", "sim-gpu-chat"];
// Simulated engines start in seconds, but placement, the fake fetch and readiness add up.
const READY_TIMEOUT_MS = 90_000;

/** The Models page, reached from the cluster view with the saved admin session. */
async function openModels(page: Page) {
  await openConsole(page);
  await page.getByTestId("nav-models").click();
  await expect(page).toHaveURL(/\/models$/);
  await expect(page.getByTestId("models-table")).toBeVisible();
}

function modelRow(page: Page, name: string): Locator {
  return page
    .getByTestId("models-table")
    .locator(`[data-testid="model-row"][data-model-name="${name}"]`);
}

async function expectReady(page: Page, name: string) {
  await expect(modelRow(page, name).getByTestId("model-state")).toHaveAttribute(
    "data-state",
    "ready",
    { timeout: READY_TIMEOUT_MS },
  );
}

async function addPreset(page: Page, name: string) {
  await page.getByTestId("add-model").click();
  await page.getByTestId("presets-tab").click();
  const preset = page.locator(`[data-testid="preset-row"][data-preset-name="${name}"]`);
  await expect(preset.getByTestId("preset-add")).toBeEnabled();
  await preset.getByTestId("preset-add").click();
  await expect(page.getByTestId("add-model-dialog")).toBeHidden();
}

/** Puts back a dev model an earlier, failed run of a test may have left removed. */
async function ensurePresent(page: Page, name: string) {
  await expect(page.getByTestId("model-row").first()).toBeVisible();
  if ((await modelRow(page, name).count()) === 0) await addPreset(page, name);
  await expect(modelRow(page, name)).toBeVisible();
}

test("lists the dev models, which become ready, and their replicas", async ({ page }) => {
  await openModels(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Models");
  for (const name of DEV_MODELS) await ensurePresent(page, name);
  for (const name of DEV_MODELS) {
    await expectReady(page, name);
    const row = modelRow(page, name);
    await expect(row.getByTestId("model-state")).toHaveText("READY");
    await expect(row).toContainText("sim");
    // Ready equals desired once the model is ready, e.g. "2 / 2".
    await expect(row.getByTestId("model-ready")).toHaveText(/^(\d+) \/ \1$/);
  }
  await page.screenshot({ path: `${ARTIFACTS}/models-en.png`, fullPage: true });

  await modelRow(page, "sim-gpu-chat").getByTestId("model-ready").click();
  await expect(page).toHaveURL(/\/replicas\?model=sim-gpu-chat$/);
  await expect(page.getByTestId("replicas-model-filter")).toHaveValue("sim-gpu-chat");
  const replicas = page.getByTestId("replicas-table").getByTestId("replica-row");
  await expect(replicas.first()).toBeVisible();
  await expect(replicas.first()).toHaveAttribute("data-model-name", "sim-gpu-chat");
  await expect(replicas.first()).toContainText(/GPU \d/);

  await page.getByTestId("replicas-model-filter").selectOption("");
  await expect(page).toHaveURL(/\/replicas$/);
  await expect(
    page.locator('[data-testid="replica-row"][data-model-name="sim-chat"]').first(),
  ).toBeVisible();
  await expect(
    page.locator('[data-testid="replica-row"][data-model-name="sim-chat"]').first(),
  ).toContainText("CPU");
  await page.screenshot({ path: `${ARTIFACTS}/replicas-en.png`, fullPage: true });
});

test("removes sim-chat and adds it back from the Presets tab", async ({ page }) => {
  await openModels(page);
  await ensurePresent(page, "sim-chat");

  await modelRow(page, "sim-chat").getByTestId("model-remove").click();
  const confirm = page.getByTestId("remove-confirm");
  await expect(confirm).toContainText("sim-chat");
  await confirm.getByTestId("remove-confirm-ok").click();
  await expect(modelRow(page, "sim-chat")).toHaveCount(0);
  await expect(modelRow(page, "sim-gpu-chat")).toBeVisible();

  await page.getByTestId("add-model").click();
  await page.getByTestId("presets-tab").click();
  const preset = page.locator('[data-testid="preset-row"][data-preset-name="sim-chat"]');
  await expect(preset).toContainText("CPU");
  await expect(preset.getByTestId("preset-fits")).toHaveAttribute("data-fits", "true");
  // A preset already in the catalog cannot be added twice.
  await expect(
    page
      .locator('[data-testid="preset-row"][data-preset-name="sim-gpu-chat"]')
      .getByTestId("preset-add"),
  ).toBeDisabled();
  await page.screenshot({ path: `${ARTIFACTS}/models-add-presets-en.png`, fullPage: true });
  await preset.getByTestId("preset-add").click();
  await expect(page.getByTestId("add-model-dialog")).toBeHidden();

  await expect(modelRow(page, "sim-chat")).toBeVisible();
  await expectReady(page, "sim-chat");
});

test("shows each reason an invalid definition is refused under the editor", async ({ page }) => {
  await openModels(page);
  await page.getByTestId("add-model").click();
  await page.getByTestId("definition-tab").click();

  const editor = page.getByTestId("definition-editor");
  await editor.fill("{ not json");
  await page.getByTestId("definition-submit").click();
  await expect(page.getByTestId("definition-errors")).toContainText("not valid JSON");

  await editor.fill('{"name":"Bad Name!","source":"x.pt","profiles":[]}');
  await page.getByTestId("definition-submit").click();
  const errors = page.getByTestId("definition-errors");
  await expect(errors).toContainText("refused");
  // One line per problem, in the control plane's words: the name rule and the missing profile.
  expect(await errors.getByTestId("definition-error").count()).toBeGreaterThanOrEqual(2);
  await expect(errors).toContainText(/lowercase letters/);
  await expect(errors).toContainText(/at least one profile/);
  await expect(page.getByTestId("add-model-dialog")).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/models-definition-errors-en.png`, fullPage: true });

  await page.getByTestId("add-model-close").click();
  await expect(modelRow(page, "bad-name")).toHaveCount(0);
});

test("reads in Turkish", async ({ page }) => {
  await openModels(page);
  await chooseLanguage(page, "tr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Modeller");
  await expect(page.getByTestId("nav-replicas")).toContainText("Replikalar");
  await expectReady(page, "sim-gpu-chat");
  await expect(modelRow(page, "sim-gpu-chat").getByTestId("model-state")).toHaveText("HAZIR");
  await page.screenshot({ path: `${ARTIFACTS}/models-tr.png`, fullPage: true });
  // The language is also kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});

test("a definition no node can hold is added, explains why it is unplaceable, and is removed", async ({
  page,
}) => {
  const name = "e2e-unplaceable";
  await openModels(page);
  if ((await modelRow(page, name).count()) === 0) {
    await page.getByTestId("add-model").click();
    await page.getByTestId("definition-tab").click();
    const definition = {
      name,
      source: "file:///var/lib/llmgw/sim/e2e-unplaceable",
      profiles: [{ name: "sim", engine: "sim", gpu: "B200-192G", gpus: 1 }],
    };
    await page.getByTestId("definition-editor").fill(JSON.stringify(definition, null, 2));
    await page.getByTestId("definition-submit").click();
    await expect(page.getByTestId("add-model-dialog")).toBeHidden();
  }
  const row = modelRow(page, name);
  await expect(row.getByTestId("model-state")).toHaveAttribute("data-state", "unplaceable", {
    timeout: READY_TIMEOUT_MS,
  });
  await row.getByTestId("model-reasons-toggle").click();
  const reasons = page.locator(`[data-testid="model-reasons"][data-model-name="${name}"]`);
  await expect(reasons).toContainText("sim-h100-a");
  await page.screenshot({ path: `${ARTIFACTS}/models-unplaceable-en.png`, fullPage: true });

  await row.getByTestId("model-remove").click();
  await page.getByTestId("remove-confirm-ok").click();
  await expect(row).toHaveCount(0);
  await expect(reasons).toHaveCount(0);
});
