// /admin/mcp in a real browser, in English and Turkish: add the built-in llmgw:admin and a server
// with a sealed bearer token, test and list tools, grant and revoke, refuse a grant to a key that
// does not exist, turn a server off and on, replace its credential and remove it. The sealed
// value never shows on the page. Screenshots land in e2e/artifacts/ (mcp-en.png, mcp-tr.png).
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ARTIFACTS, devFacts } from "./facts";
import { seed } from "./factories";
import { chooseLanguage, openConsole } from "./session";

const SECRET = `e2e-sealed-${Date.now()}`;

/** The MCP page, reached from the cluster view with the saved admin session. */
async function openMcp(page: Page) {
  await openConsole(page);
  await page.getByTestId("nav-mcp").click();
  await expect(page).toHaveURL(/\/admin\/mcp$/);
  await expect(page.getByTestId("mcp-connect")).toBeVisible();
  // The page speaks in the console's words: a key is made on the API keys page, not by a CLI verb.
  await expect(page.getByTestId("mcp-connect")).not.toContainText("llmgw ctl");
}

function serverRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="mcp-server-row"][data-server-name="${name}"]`);
}

async function addServer(page: Page, name: string, url?: string, secret?: string) {
  if ((await serverRow(page, name).count()) > 0) return;
  await page.getByTestId("mcp-add").click();
  await page.getByTestId("mcp-add-name").fill(name);
  if (url) await page.getByTestId("mcp-add-url").fill(url);
  if (secret) {
    await page.getByTestId("mcp-add-credential-kind").selectOption("bearer");
    await page.getByTestId("mcp-add-secret").fill(secret);
  }
  await page.getByTestId("mcp-add-submit").click();
  await expect(serverRow(page, name)).toBeVisible();
}

test("adds, tests, grants, revokes, turns off and removes MCP servers (English)", async ({
  page,
}) => {
  await openMcp(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("MCP servers");
  await page.getByTestId("mcp-add").click();
  await page.getByTestId("mcp-add-name").fill("llmgw:admin");
  // The built-in server has no address to write: the field is text, not a box.
  await expect(page.getByTestId("mcp-add-url")).toHaveCount(0);
  await expect(page.getByTestId("mcp-add-url-fixed")).toHaveText("built in (answered by llmgw)");
  await page.getByTestId("mcp-add-submit").click();
  const admin = serverRow(page, "llmgw:admin");
  await expect(admin).toBeVisible();
  await expect(admin.getByTestId("mcp-server-state")).toHaveText("ON");

  await addServer(page, "tickets", "https://mcp.example.invalid/mcp", SECRET);
  const tickets = serverRow(page, "tickets");
  await expect(tickets.getByTestId("mcp-server-headers")).toHaveText("Authorization (sealed)");

  await admin.getByTestId("mcp-open-details").click();
  const details = page.locator('[data-testid="mcp-details"][data-server-name="llmgw:admin"]');
  await expect(details.getByTestId("mcp-edit-url")).toHaveCount(0);
  await expect(details.getByTestId("mcp-edit-url-fixed")).toBeVisible();
  await details.getByTestId("mcp-test").click();
  await expect(details.getByTestId("mcp-tool")).toHaveCount(6);
  await expect(details.getByTestId("mcp-tools")).toContainText("explain_placement");

  // A grant names someone who exists here (a unit, key or person); the admin is always there.
  const subject = `user:${devFacts().adminUser}`;
  await details.getByTestId("mcp-grant-subject").fill(subject);
  await details.getByTestId("mcp-grant-tools").fill("list_nodes, cluster_status");
  await details.getByTestId("mcp-grant-submit").click();
  await expect(
    details.locator(`[data-testid="mcp-grant-row"][data-subject="${subject}"]`),
  ).toContainText("cluster_status, list_nodes");
  await expect(admin.getByTestId("mcp-server-grants")).toHaveText(subject);

  await details.getByTestId("mcp-grant-subject").fill("key:no-such-key");
  await details.getByTestId("mcp-grant-tools").fill("*");
  await details.getByTestId("mcp-grant-submit").click();
  await expect(details.getByTestId("mcp-action-error")).toContainText(
    'no API key with id "no-such-key"',
  );

  await page.screenshot({ path: `${ARTIFACTS}/mcp-en.png`, fullPage: true });

  await details
    .locator(`[data-testid="mcp-grant-row"][data-subject="${subject}"]`)
    .getByTestId("mcp-revoke")
    .click();
  await expect(admin.getByTestId("mcp-server-grants")).toHaveText("nobody");

  await tickets.getByTestId("mcp-toggle").click();
  await expect(tickets).toHaveAttribute("data-state", "disabled");
  await expect(tickets.getByTestId("mcp-server-state")).toHaveText("OFF");
  await tickets.getByTestId("mcp-toggle").click();
  await expect(tickets).toHaveAttribute("data-state", "enabled");

  await tickets.getByTestId("mcp-open-details").click();
  const ticketDetails = page.locator('[data-testid="mcp-details"][data-server-name="tickets"]');
  await ticketDetails.getByTestId("mcp-credential-secret").fill(`${SECRET}-2`);
  await ticketDetails.getByTestId("mcp-credential-submit").click();
  await expect(ticketDetails.getByTestId("mcp-credential-secret")).toHaveValue("");
  await ticketDetails.getByTestId("mcp-edit-rate").fill("30");
  await ticketDetails.getByTestId("mcp-edit-submit").click();
  await expect(tickets).toContainText("30 calls a minute per caller");
  await ticketDetails.getByTestId("mcp-edit-rate").fill("");
  await ticketDetails.getByTestId("mcp-edit-submit").click();
  await expect(tickets).toContainText("no limit");

  expect(await page.content()).not.toContain(SECRET);
  await tickets.getByTestId("mcp-remove").click();
  await page.getByTestId("remove-confirm-ok").click();
  await expect(tickets).toHaveCount(0);
});

test("reads in Turkish", async ({ page }) => {
  await seed.mcpServer({ name: "llmgw:admin" });
  await openMcp(page);
  await chooseLanguage(page, "tr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("MCP sunucuları");
  const admin = serverRow(page, "llmgw:admin");
  await expect(admin.getByTestId("mcp-server-state")).toHaveText("AÇIK");
  await expect(page.getByTestId("mcp-connect")).toContainText(
    "Bir ajanı /mcp adresine yönlendirmek",
  );
  await page.screenshot({ path: `${ARTIFACTS}/mcp-tr.png`, fullPage: true });
  // The language is kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});
