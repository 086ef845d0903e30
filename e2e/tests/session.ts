// What most specs do first: sign in as the admin `llmgw dev` made, and switch the console's
// language the way a person does (waiting for the server to keep the choice).
import { expect, type Page } from "@playwright/test";
import { devFacts } from "./facts";

export async function signInAsAdmin(page: Page): Promise<void> {
  const facts = devFacts();
  await page.goto(`${facts.consoleUrl}/sign-in`);
  await page.getByTestId("signin-username").fill(facts.adminUser);
  await page.getByTestId("signin-password").fill(facts.adminPassword);
  await page.getByTestId("signin-submit").click();
  await expect(page).toHaveURL(/\/cluster$/);
}

export async function chooseLanguage(page: Page, language: "en" | "tr"): Promise<void> {
  await Promise.all([
    page.waitForResponse((res) => res.url().includes("auth.setLocale")),
    page.getByTestId("lang-switch").selectOption(language),
  ]);
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}
