// Sign-in remembers where the operator was going, and nowhere else: a deep link survives the detour
// through /sign-in, and an address off this console in ?next= lands on the cluster page. The pages
// that tell people what to copy show the real addresses (the control plane's /v1 and /mcp, SCIM's
// base URL, Entra's redirect URI on the console), and a refusal on a Turkish page is in Turkish.
// Captured in English and Turkish in e2e/artifacts/.
import { expect, test, type Page } from "@playwright/test";
import { ARTIFACTS, devFacts } from "./facts";
import { chooseLanguage, fillSignInAsAdmin, forgetSession, openConsole } from "./session";

test("a deep link survives sign-in", async ({ page }) => {
  const { consoleUrl } = devFacts();
  const deepLink = "/nodes/sim-h100-a/logs?source=agent";
  await forgetSession(page);
  await page.goto(`${consoleUrl}${deepLink}`);
  await expect(page).toHaveURL(/\/sign-in\?next=/);
  await fillSignInAsAdmin(page);
  await expect(page).toHaveURL(`${consoleUrl}${deepLink}`);
  await expect(page.getByTestId("logs-output")).toBeVisible();
});

// The attack: a link to the real console whose ?next= sends a fresh session to another site.
for (const attack of [
  "https://evil.example/",
  "//evil.example/",
  "/\\evil.example/",
  "/\t/evil.example/",
])
  test(`sign-in never follows ?next=${JSON.stringify(attack)} off the console`, async ({
    page,
  }) => {
    const { consoleUrl } = devFacts();
    await forgetSession(page);
    await page.goto(`${consoleUrl}/sign-in?next=${encodeURIComponent(attack)}`);
    await fillSignInAsAdmin(page);
    await expect(page).toHaveURL(`${consoleUrl}/cluster`);
    // Signed in already, the sign-in page moves on at once, and still not off the console.
    await page.goto(`${consoleUrl}/sign-in?next=${encodeURIComponent(attack)}`);
    await expect(page).toHaveURL(`${consoleUrl}/cluster`);
  });

// The attack: a signed-out visit to the fleet's pages, whose first queries the shell asks before
// auth.me has said who is there (P9). The server refuses every one, and the visit must end at
// sign-in with nothing of the console on screen on the way: no shell, no data, no error panel.
const SHOWN_WHILE_SIGNED_OUT = `(() => {
  const shown = new Set();
  globalThis.llmgwShownSignedOut = shown;
  new MutationObserver(() => {
    for (const selector of [".shell", "[data-testid=error-panel]", "[data-testid=nodes-count]"])
      if (document.querySelector(selector)) shown.add(selector);
  }).observe(document, { childList: true, subtree: true });
})();`;

for (const path of ["/nodes", "/cluster"])
  test(`a signed-out visit to ${path} asks the fleet, is refused, and ends at sign-in showing nothing`, async ({
    page,
  }) => {
    const { consoleUrl } = devFacts();
    await forgetSession(page);
    const answers: { procedure: string; status: number }[] = [];
    page.on("response", (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith("/api/trpc/"))
        answers.push({ procedure: url.pathname.slice(10), status: response.status() });
    });
    await page.addInitScript({ content: SHOWN_WHILE_SIGNED_OUT });
    await page.goto(`${consoleUrl}${path}`);
    await expect(page).toHaveURL(`${consoleUrl}/sign-in?next=${encodeURIComponent(path)}`);
    await expect(page.getByTestId("signin-username")).toBeVisible();
    const fleetCall = path === "/nodes" ? "nodes.page" : "nodes.cards";
    await expect.poll(() => answers.map((answer) => answer.procedure)).toContain(fleetCall);
    // Every call of the console page was refused; the sign-in page's own (signIn.*) may answer.
    const answered = answers.filter((a) => a.status !== 401 && !a.procedure.includes("signIn."));
    expect(answered).toEqual([]);
    const shown = await page.evaluate(() => [
      ...((globalThis as { llmgwShownSignedOut?: Set<string> }).llmgwShownSignedOut ?? []),
    ]);
    expect(shown).toEqual([]);
  });

async function expectRealAddresses(page: Page, tag: "en" | "tr") {
  const { consoleUrl, apiUrl } = devFacts();
  await page.goto(`${consoleUrl}/admin/mcp`);
  await expect(page.getByTestId("mcp-inspector-command")).toContainText(`${apiUrl}/mcp `);
  await page.getByTestId("mcp-connect").screenshot({ path: `${ARTIFACTS}/mcp-connect-${tag}.png` });

  await page.goto(`${consoleUrl}/people/sign-in`);
  await expect(page.getByTestId("entra-help")).toContainText(`${consoleUrl}/auth/entra/callback`);
  await expect(page.getByTestId("scim-help")).toContainText(`${apiUrl}/scim/v2`);
  await page.screenshot({ path: `${ARTIFACTS}/signin-setup-addresses-${tag}.png`, fullPage: true });

  await page.goto(`${consoleUrl}/keys`);
  await page.getByTestId("create-key").click();
  await page.getByTestId("key-owner").fill(`user:${devFacts().adminUser}`);
  await page.getByTestId("key-models").fill("sim-*");
  await page.getByTestId("key-create-submit").click();
  await expect(page.getByTestId("created-key-usage")).toContainText(`${apiUrl}/v1`);
  await page.screenshot({ path: `${ARTIFACTS}/keys-created-address-${tag}.png`, fullPage: true });
  await page.getByTestId("created-key-done").click();
}

test("the pages show the real addresses, in English and Turkish", async ({ page }) => {
  await openConsole(page);
  await expectRealAddresses(page, "en");
  await chooseLanguage(page, "tr");
  try {
    await expectRealAddresses(page, "tr");
  } finally {
    await chooseLanguage(page, "en");
  }
});

test("a refusal on a Turkish page is in Turkish", async ({ page }) => {
  const { consoleUrl } = devFacts();
  await openConsole(page);
  await page.goto(`${consoleUrl}/models`);
  await chooseLanguage(page, "tr");
  try {
    await page.getByTestId("add-model").click();
    await page.getByTestId("definition-tab").click();
    await page
      .getByTestId("definition-editor")
      .fill('{"name":"bad-tr","source":"x.pt","profiles":[]}');
    await page.getByTestId("definition-submit").click();
    await expect(page.getByTestId("definition-errors")).toContainText(
      "“bad-tr” modeli reddedildi:",
    );
    await page.screenshot({ path: `${ARTIFACTS}/models-refused-tr.png`, fullPage: true });
    await page.getByTestId("add-model-close").click();

    await page.goto(`${consoleUrl}/admin/mcp`);
    await page.getByTestId("mcp-add").click();
    await page.getByTestId("mcp-add-name").fill("tickets-tr");
    await page.getByTestId("mcp-add-url").fill("not an address");
    await page.getByTestId("mcp-add-submit").click();
    await expect(page.getByTestId("mcp-add-error")).toHaveText(
      "Kontrol düzleminin yanıtı: “not an address” bir URL değil; https://mcp.example.com/mcp gibi bir adres verin.",
    );
    await page.screenshot({ path: `${ARTIFACTS}/mcp-refused-tr.png`, fullPage: true });
  } finally {
    await chooseLanguage(page, "en");
  }
});
