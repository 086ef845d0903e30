// The admin's browser session: signed in once through the form (admin-session.setup.ts) and saved
// as storage state that every spec's context starts from; specs that test signing in itself start
// signed out (SIGNED_OUT) and use the form. Also the language switch, the way a person uses it
// (waiting for the server to keep the choice).
import { expect, type Browser, type Page } from "@playwright/test";
import { adminApi } from "./factories";
import { ADMIN_SESSION_PATH, devFacts } from "./facts";

/** Storage state with no session: a visitor who has not signed in. */
export const SIGNED_OUT = { cookies: [], origins: [] };

/** Fills the sign-in form on the page already open with the admin's name and password. */
export async function fillSignInAsAdmin(page: Page): Promise<void> {
  const facts = devFacts();
  await page.getByTestId("signin-username").fill(facts.adminUser);
  await page.getByTestId("signin-password").fill(facts.adminPassword);
  await page.getByTestId("signin-submit").click();
}

/** Signs in through the form; the cluster heatmap is the landing page. */
export async function signInAsAdmin(page: Page): Promise<void> {
  await page.goto(`${devFacts().consoleUrl}/sign-in`);
  await fillSignInAsAdmin(page);
  await expect(page).toHaveURL(/\/cluster$/);
}

/**
 * Signs the admin in through the form in a fresh context and saves its storage state for the
 * specs. Run once before them, and again by a spec that ends every admin session.
 */
export async function saveAdminSession(browser: Browser): Promise<void> {
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  try {
    await signInAsAdmin(await context.newPage());
    await context.storageState({ path: ADMIN_SESSION_PATH });
  } finally {
    await context.close();
  }
}

/** Starts a test about signing in signed out: drops the saved admin session from its browser. */
export async function forgetSession(page: Page): Promise<void> {
  await page.context().clearCookies();
}

/** Opens the console's landing page (the cluster heatmap) with the saved admin session. */
export async function openConsole(page: Page): Promise<void> {
  // The admin's language is kept on the server: a test that stopped half-way through its Turkish
  // part must not leave the next test reading Turkish.
  await adminApi().auth.setLocale.mutate({ locale: "en" });
  await page.goto(`${devFacts().consoleUrl}/cluster`);
  await expect(page).toHaveURL(/\/cluster$/);
}

export async function chooseLanguage(page: Page, language: "en" | "tr"): Promise<void> {
  await Promise.all([
    page.waitForResponse((res) => res.url().includes("auth.setLocale")),
    page.getByTestId("lang-switch").selectOption(language),
  ]);
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}
