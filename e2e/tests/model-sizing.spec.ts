// Sizing a model from the Models page: a card count no node has is refused under the field, a
// count that fits is stored as a new revision and says how the replicas restart, and the context
// dialog does the same for the context. The model is seeded through the API and removed after.
import { expect, test, type Page } from "@playwright/test";
import { adminApi, seed } from "./factories";
import { openConsole } from "./session";

const NAME = "sized-e2e";

async function openRow(page: Page) {
  await openConsole(page);
  await page.getByTestId("nav-models").click();
  await expect(page).toHaveURL(/\/models$/);
  const row = page.locator(`[data-testid="model-row"][data-model-name="${NAME}"]`);
  await expect(row).toBeVisible();
  return row;
}

test.beforeAll(async () => {
  await adminApi()
    .models.remove.mutate({ name: NAME })
    .catch(() => undefined);
  await seed.model({
    name: NAME,
    source: `file:///var/lib/llmgw/sim/${NAME}`,
    profiles: [
      { name: "sim", engine: "sim", gpu: { min_compute_capability: 7.0, min_memory_gb: 16 } },
    ],
    replicas: { min: 1, max: 1 },
  });
});

test.afterAll(async () => {
  await adminApi()
    .models.remove.mutate({ name: NAME })
    .catch(() => undefined);
});

test("sets a model's cards and context from its row, refusing what no node has", async ({
  page,
}) => {
  const row = await openRow(page);
  await row.getByTestId("model-sizing-gpus").click();
  const dialog = page.getByTestId("sizing-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("sizing-gpus").fill("64");
  await dialog.getByTestId("sizing-save").click();
  await expect(dialog.getByTestId("sizing-error")).toContainText(
    `no node could hold a replica of "${NAME}" on 64 cards`,
  );

  await dialog.getByTestId("sizing-gpus").fill("2");
  await dialog.getByTestId("sizing-save").click();
  await expect(dialog.getByTestId("sizing-notes")).toContainText("Stored as revision 2.");
  await page.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  const definition = (await adminApi().models.get.query({ name: NAME })).definition;
  expect(definition).toMatchObject({ profiles: [{ gpus: 2, tensor_parallel: 2 }] });

  await row.getByTestId("model-sizing-context").click();
  await dialog.getByTestId("sizing-contextTokens").fill("8192");
  await dialog.getByTestId("sizing-save").click();
  await expect(dialog.getByTestId("sizing-notes")).toContainText("Stored as revision 3.");
  const after = (await adminApi().models.get.query({ name: NAME })).definition;
  expect(after).toMatchObject({ profiles: [{ context_length: 8192 }] });
});
