// Identity in a real browser: an admin sets up Entra ID on People → Sign-in, a person signs in with
// "Sign in with Microsoft" through a real local OpenID provider (Entra-shaped tokens) and gets the
// role their group carries; a refused token comes back to the sign-in page with the reason. The
// People, Sign-in and Audit pages are captured in English and Turkish in e2e/artifacts/.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { startEntraProvider, type EntraProvider } from "@llmgw/testing";
import { ARTIFACTS, devFacts } from "./facts";

const GROUP_ID = randomUUID();
let provider: EntraProvider;

/** Calls a tRPC mutation as the admin over plain HTTP (set-up the console has no form for). */
async function adminCall(path: string, input: unknown): Promise<void> {
  const facts = devFacts();
  const login = await fetch(`${facts.apiUrl}/api/trpc/auth.login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: facts.adminUser, password: facts.adminPassword }),
  });
  const { result } = (await login.json()) as { result: { data: { token: string } } };
  const res = await fetch(`${facts.apiUrl}/api/trpc/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${result.data.token}` },
    body: JSON.stringify(input),
  });
  if (!res.ok && res.status !== 409) throw new Error(`${path}: ${res.status} ${await res.text()}`);
}

async function signInAsAdmin(page: Page) {
  const facts = devFacts();
  await page.goto(`${facts.consoleUrl}/sign-in`);
  await page.getByTestId("signin-username").fill(facts.adminUser);
  await page.getByTestId("signin-password").fill(facts.adminPassword);
  await page.getByTestId("signin-submit").click();
  await expect(page).toHaveURL(/\/cluster$/);
}

async function chooseLanguage(page: Page, language: "en" | "tr") {
  await Promise.all([
    page.waitForResponse((res) => res.url().includes("auth.setLocale")),
    page.getByTestId("lang-switch").selectOption(language),
  ]);
  await expect(page.locator("html")).toHaveAttribute("lang", language);
}

test.beforeAll(async () => {
  provider = await startEntraProvider();
  await adminCall("groups.create", { name: "entra-ml-operators", externalId: GROUP_ID });
  await adminCall("roles.grant", { group: "entra-ml-operators", role: "operator" });
});

test.afterAll(async () => {
  await provider?.stop();
});

test("an admin sets up Entra ID on People → Sign-in; the secret is never shown again", async ({
  page,
}) => {
  await signInAsAdmin(page);
  await page.getByTestId("nav-signin-setup").click();
  await page.getByTestId("entra-tenant").fill(provider.tenantId);
  await page.getByTestId("entra-client").fill(provider.clientId);
  await page.getByTestId("entra-secret").fill(provider.clientSecret);
  await page.getByTestId("entra-authority").fill(provider.authorityUrl);
  await page.getByTestId("entra-save").click();
  await expect(page.getByTestId("entra-saved")).toBeVisible();
  await expect(page.getByTestId("signin-setup-state")).toHaveText(/is on/);
  await expect(page.getByTestId("entra-secret")).toHaveValue("");
  expect(await page.content()).not.toContain(provider.clientSecret);
  await page.getByTestId("scim-rotate").click();
  await expect(page.getByTestId("scim-token")).toContainText("llmgw_scim_");
  await page.screenshot({ path: `${ARTIFACTS}/signin-setup-en.png`, fullPage: true });
  await chooseLanguage(page, "tr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Oturum açma");
  await page.screenshot({ path: `${ARTIFACTS}/signin-setup-tr.png`, fullPage: true });
  await chooseLanguage(page, "en");
});

test("a person signs in with Microsoft and holds the role their Entra group carries", async ({
  page,
}) => {
  provider.user = {
    oid: randomUUID(),
    name: "Ada Lovelace",
    preferredUsername: "ada@contoso.example",
    groups: [GROUP_ID],
  };
  await page.goto(`${devFacts().consoleUrl}/sign-in`);
  await page.screenshot({ path: `${ARTIFACTS}/sign-in-microsoft-en.png`, fullPage: true });
  await page.getByTestId("signin-microsoft").click();
  await expect(page).toHaveURL(/\/cluster$/);
  await expect(page.getByTestId("current-user")).toContainText("ada@contoso.example (operator)");
  // An operator may look at People but not change roles there.
  await page.getByTestId("nav-people").click();
  const row = page.locator('[data-testid="person-row"][data-username="ada@contoso.example"]');
  await expect(row).toContainText("Entra ID");
  await expect(row).toContainText("entra-ml-operators");
  await expect(row.locator("select")).toHaveCount(0);
});

test("a refused token comes back to the sign-in page with the reason", async ({ page }) => {
  provider.claims = (payload) => Object.assign(payload, { aud: randomUUID() });
  try {
    await page.goto(`${devFacts().consoleUrl}/sign-in`);
    await page.getByTestId("signin-microsoft").click();
    await expect(page).toHaveURL(/\/sign-in\?error=/);
    await expect(page.getByTestId("signin-sso-error")).toContainText(/aud/);
    await page.screenshot({ path: `${ARTIFACTS}/sign-in-sso-refused-en.png`, fullPage: true });
  } finally {
    provider.claims = null;
  }
});

test("People and the Audit log, in English and Turkish", async ({ page }) => {
  await signInAsAdmin(page);
  await page.getByTestId("nav-people").click();
  await expect(page.getByTestId("people-table")).toContainText("ada@contoso.example");
  await expect(page.getByTestId("groups-table")).toContainText("entra-ml-operators");
  await page.screenshot({ path: `${ARTIFACTS}/people-en.png`, fullPage: true });
  await page.getByTestId("nav-audit").click();
  const rows = page.getByTestId("audit-row");
  await expect(rows.filter({ hasText: "setting.entra" }).first()).toContainText("[redacted]");
  await expect(page.getByTestId("audit-table")).not.toContainText(provider.clientSecret);
  await page.screenshot({ path: `${ARTIFACTS}/audit-en.png`, fullPage: true });
  await chooseLanguage(page, "tr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Denetim kaydı");
  await page.screenshot({ path: `${ARTIFACTS}/audit-tr.png`, fullPage: true });
  await page.getByTestId("nav-people").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kişiler");
  await page.screenshot({ path: `${ARTIFACTS}/people-tr.png`, fullPage: true });
  await chooseLanguage(page, "en");
});
