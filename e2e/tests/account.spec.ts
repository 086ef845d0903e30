// The person's own page in a real browser: a token made here signs the real `llmgw ctl` in (the
// token piped to `ctl login --token-stdin`, as the page says), revoking it signs the CLI out, and
// "sign out everywhere" ends the browser's session and every token. Screenshots land in
// e2e/artifacts/ (account-en.png, account-token-en.png, account-tr.png).
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { llmgwBin } from "@llmgw/testing";
import { ARTIFACTS, devFacts } from "./facts";
import { chooseLanguage, openConsole, saveAdminSession } from "./session";

/** Runs `llmgw ctl …` with its own config dir; answers exit code and output. */
function ctl(configDir: string, args: string[], stdin?: string) {
  return new Promise<{ code: number; out: string }>((resolve) => {
    const child = execFile(
      process.execPath,
      [llmgwBin(), "ctl", ...args],
      { env: { ...process.env, LLMGW_CONFIG_DIR: configDir, LLMGW_TOKEN: "" }, timeout: 60_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number((error as { code?: number }).code ?? 1) : 0,
          out: `${stdout}${stderr}`,
        }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
    else child.stdin?.end();
  });
}

test.describe.configure({ mode: "serial" });

let configDir = "";
test.beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), "llmgw-e2e-ctl-"));
});
test.afterAll(async ({ browser }) => {
  rmSync(configDir, { recursive: true, force: true });
  // "Sign out everywhere" ended the admin session saved for the other specs too.
  await saveAdminSession(browser);
});

test("a token made on the account page signs the CLI in; revoking it signs the CLI out", async ({
  page,
}) => {
  const facts = devFacts();
  await openConsole(page);
  // The name in the top bar leads to the person's own page.
  await page.getByTestId("current-user").click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account");
  await expect(page.getByTestId("account-username")).toHaveText(facts.adminUser);
  await expect(page.getByTestId("account-role")).toHaveText("admin");
  await expect(page.getByTestId("account-source")).toHaveText("a password kept here");

  // A token needs a name: the server's refusal shows.
  await page.getByTestId("token-create").click();
  await expect(page.getByTestId("token-create-error")).toContainText("a token needs a name");

  const label = `e2e-laptop-${Date.now()}`;
  await page.getByTestId("token-label").fill(label);
  await page.getByTestId("token-expires").selectOption("7");
  await page.getByTestId("token-create").click();
  const value = page.getByTestId("created-token-value");
  await expect(value).toHaveText(/\S{20,}/);
  const token = ((await value.textContent()) ?? "").trim();
  await expect(page.getByTestId("created-token-command")).toHaveText(
    `llmgw ctl login --server ${facts.apiUrl} --token-stdin`,
  );
  await page.screenshot({ path: `${ARTIFACTS}/account-token-en.png`, fullPage: true });
  await page.getByTestId("created-token-done").click();
  await expect(page.getByTestId("created-token")).toHaveCount(0);
  const row = page.locator(`[data-testid="token-row"][data-label="${label}"]`);
  await expect(row).toBeVisible();
  // The list never shows the token itself.
  await expect(page.getByTestId("tokens-table")).not.toContainText(token);

  // The command the page shows, with the token on standard input.
  const login = await ctl(configDir, ["login", "--server", facts.apiUrl, "--token-stdin"], token);
  expect(login.out).toContain(`as ${facts.adminUser} (admin) with a token`);
  expect(login.code).toBe(0);
  expect(statSync(join(configDir, "credentials.json")).mode & 0o777).toBe(0o600);
  const whoami = await ctl(configDir, ["whoami"]);
  expect(whoami.out).toContain(`${facts.adminUser} (admin)`);
  await page.screenshot({ path: `${ARTIFACTS}/account-en.png`, fullPage: true });

  await row.getByTestId("token-revoke").click();
  await expect(page.getByTestId("token-revoke-confirm")).toContainText(label);
  await page.getByTestId("token-revoke-confirm-ok").click();
  await expect(row).toHaveCount(0);
  const after = await ctl(configDir, ["whoami"]);
  expect(after.code).not.toBe(0);
  expect(after.out).toContain("run `llmgw ctl login");
});

test("the account page reads in Turkish", async ({ page }) => {
  await openConsole(page);
  await chooseLanguage(page, "tr");
  await page.getByTestId("nav-account").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hesabınız");
  await expect(page.getByTestId("account-source")).toHaveText("burada saklanan bir parola");
  await expect(page.getByTestId("token-create")).toHaveText("Belirteç oluştur");
  await page.screenshot({ path: `${ARTIFACTS}/account-tr.png`, fullPage: true });
  // The language is kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});

test("sign out everywhere ends this browser's session and the CLI's token", async ({ page }) => {
  const facts = devFacts();
  await openConsole(page);
  await page.getByTestId("nav-account").click();
  await page.getByTestId("token-label").fill(`e2e-everywhere-${Date.now()}`);
  await page.getByTestId("token-create").click();
  const token = ((await page.getByTestId("created-token-value").textContent()) ?? "").trim();
  await page.getByTestId("created-token-done").click();
  const login = await ctl(configDir, ["login", "--server", facts.apiUrl, "--token-stdin"], token);
  expect(login.code).toBe(0);

  await page.getByTestId("account-sign-out-everywhere").click();
  await page.getByTestId("everywhere-confirm-ok").click();
  await expect(page).toHaveURL(/\/sign-in/);
  expect((await ctl(configDir, ["whoami"])).code).not.toBe(0);
  // The old session cookie no longer opens the console.
  await page.goto(`${facts.consoleUrl}/account`);
  await expect(page).toHaveURL(/\/sign-in/);
});
