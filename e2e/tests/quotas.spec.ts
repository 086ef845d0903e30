// The Quotas page in a real browser: a dev model given to a team through the Models page's Owner
// dialog, a quota whose limit is what the team holds, and the page showing the team's bar at its
// limit with the borrowed part apart, in English and Turkish. Screenshots land in e2e/artifacts/.
// The test gives the model back its owner and removes what it created.
import { expect, test } from "@playwright/test";
import { adminApi } from "./factories";
import { ARTIFACTS } from "./facts";
import { chooseLanguage, openConsole } from "./session";

const MODEL = "sim-gpu-chat";
const TEAM = "team:e2e-quota";

test("a team's model shows on the Quotas page, held against its guarantee and limit", async ({
  page,
}) => {
  const api = adminApi();
  await api.org.create.mutate({ kind: "org", name: "e2e-quota-org" });
  await api.org.create.mutate({ kind: "team", name: "e2e-quota", parent: "org:e2e-quota-org" });
  const previousOwner = (await api.models.get.query({ name: MODEL })).owner;
  try {
    await openConsole(page);
    await page.getByTestId("nav-models").click();
    const row = page.locator(`[data-testid="model-row"][data-model-name="${MODEL}"]`);
    await row.getByTestId("model-owner").click();
    await page.getByTestId("owner-input").fill(TEAM);
    await page.getByTestId("owner-save").click();
    await expect(row.getByTestId("model-owner")).toHaveAttribute("data-owner", TEAM);

    // The limit is what the team holds now, so the page marks it at its limit.
    const teamCards = async () =>
      (await api.quotas.list.query())
        .find((entry) => entry.scope === TEAM)
        ?.lines.find((line) => line.resource.startsWith("gpus:"));
    await expect.poll(async () => (await teamCards())?.held ?? 0).toBeGreaterThan(0);
    const held = await teamCards();
    const gpuClass = held?.resource.slice("gpus:".length) ?? "";
    const cards = held?.held ?? 0;
    await api.quotas.set.mutate({
      scope: TEAM,
      guarantee: `gpus=${gpuClass}:${Math.max(0, cards - 1)},cores=4`,
      limit: `gpus=${gpuClass}:${cards}`,
    });

    await page.getByTestId("nav-quotas").click();
    await expect(page).toHaveURL(/\/quotas$/);
    const scope = page.locator(`[data-testid="quota-scope"][data-scope="${TEAM}"]`);
    await expect(scope.getByTestId("quota-at-limit")).toBeVisible();
    const bar = scope.locator(`[data-testid="quota-bar"][data-resource="gpus:${gpuClass}"]`);
    await expect(bar).toHaveClass(/quota-bar-at-limit/);
    await expect(bar.getByTestId("quota-bar-limit")).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/quotas-en.png`, fullPage: true });

    await chooseLanguage(page, "tr");
    await expect(scope.getByTestId("quota-at-limit")).toHaveText("Sınırında");
    await page.screenshot({ path: `${ARTIFACTS}/quotas-tr.png`, fullPage: true });
    await chooseLanguage(page, "en");
  } finally {
    await api.models.setOwner.mutate({ model: MODEL, owner: previousOwner });
    await api.quotas.remove.mutate({ scope: TEAM }).catch(() => undefined);
    await api.org.remove.mutate({ owner: TEAM });
    await api.org.remove.mutate({ owner: "org:e2e-quota-org" });
  }
});
