// Small things a first-time operator met, in a real browser, English and Turkish: the key dialog
// fills the owner and names a bad limit in words; an unknown ?model= on Replicas is said to be
// unknown and the replicas' notes read in Turkish; the audit log filters by who and by target,
// says when nothing matches and opens a row's details. Screenshots land in e2e/artifacts/.
import { expect, test } from "@playwright/test";
import { ARTIFACTS, devFacts } from "./facts";
import { chooseLanguage, openConsole } from "./session";

test("the key dialog fills the owner, offers known owners and names a bad limit", async ({
  page,
}) => {
  await openConsole(page);
  await page.getByTestId("nav-keys").click();
  await page.getByTestId("create-key").click();
  await expect(page.getByTestId("key-owner")).toHaveValue(`user:${devFacts().adminUser}`);
  const offered = page.getByTestId("key-owner-options").locator("option");
  await expect(offered.first()).toHaveAttribute("value", `user:${devFacts().adminUser}`);
  await page.getByTestId("key-rpm").fill("60O");
  await page.getByTestId("key-concurrent").fill("0");
  await page.getByTestId("key-create-submit").click();
  const problems = page.getByTestId("key-number-error");
  await expect(problems).toContainText("Requests per minute must be a whole number");
  await expect(problems).toContainText("Concurrent requests must be a whole number");
  await expect(problems).not.toContainText("Tokens per minute");
  await expect(page.getByTestId("created-key-value")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/keys-bad-number-en.png`, fullPage: true });
  await chooseLanguage(page, "tr");
  await page.getByTestId("key-create-submit").click();
  await expect(problems).toContainText("Dakikada istek en az 1 olan bir tam sayı olmalı");
  await page.screenshot({ path: `${ARTIFACTS}/keys-bad-number-tr.png`, fullPage: true });
  await chooseLanguage(page, "en");
});

test("an unknown ?model= on Replicas is said to be unknown; notes read in Turkish", async ({
  page,
}) => {
  await openConsole(page);
  await page.goto(`${devFacts().consoleUrl}/replicas?model=no-such-model`);
  const unknown = page.getByTestId("replicas-unknown-model");
  await expect(unknown).toContainText("The catalog has no model named “no-such-model”");
  await expect(page.getByTestId("replicas-empty")).toHaveCount(0);
  await page.screenshot({ path: `${ARTIFACTS}/replicas-unknown-model-en.png`, fullPage: true });
  await chooseLanguage(page, "tr");
  await expect(unknown).toContainText("Katalogda “no-such-model” adlı bir model yok");
  await page.screenshot({ path: `${ARTIFACTS}/replicas-unknown-model-tr.png`, fullPage: true });
  await unknown.getByRole("button").click();
  const rows = page.getByTestId("replicas-table").getByTestId("replica-row");
  await expect(rows.first()).toBeVisible({ timeout: 90_000 });
  // The dev fleet is simulated: its notes are the agent's sentences, said in Turkish here.
  await expect(page.getByTestId("replicas-table")).not.toContainText("simulated node");
  await expect(page.getByTestId("replicas-table")).not.toContainText("engine started");
  await page.screenshot({ path: `${ARTIFACTS}/replicas-tr.png`, fullPage: true });
  await chooseLanguage(page, "en");
});

test("the audit log filters by who and by target, says when nothing matches, opens details", async ({
  page,
}) => {
  await openConsole(page);
  await page.getByTestId("nav-audit").click();
  const rows = page.getByTestId("audit-row");
  await expect(rows.first()).toBeVisible();
  await page.getByTestId("audit-filter-actor").fill(devFacts().adminUser.toUpperCase());
  await expect(rows.first()).toBeVisible();
  await page.getByTestId("audit-filter-target").fill("no-such-target-at-all");
  await expect(page.getByTestId("audit-empty")).toHaveText(
    "No entry matches these filters. Clear or loosen them to see more.",
  );
  await expect(rows).toHaveCount(0);
  await page.getByTestId("audit-filter-target").fill("");
  const details = page.getByTestId("audit-details").first();
  await details.locator("summary").click();
  await expect(details.locator("pre")).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/audit-filters-en.png`, fullPage: true });
  await chooseLanguage(page, "tr");
  await page.getByTestId("audit-filter-target").fill("no-such-target-at-all");
  await expect(page.getByTestId("audit-empty")).toContainText("Bu süzgeçlere uyan kayıt yok");
  await page.screenshot({ path: `${ARTIFACTS}/audit-filters-tr.png`, fullPage: true });
  await chooseLanguage(page, "en");
});
