// The walking skeleton in a real browser: sign in, see the simulated fleet with its GPUs, open a
// node, and switch the console to Turkish. Screenshots of each view land in e2e/artifacts/.
import { expect, test } from "@playwright/test";
import { ARTIFACTS, devFacts } from "./facts";
import {
  chooseLanguage,
  fillSignInAsAdmin,
  forgetSession,
  openConsole,
  signInAsAdmin,
} from "./session";

const FLEET = [
  { name: "sim-h100-a", gpus: /8 × NVIDIA H100 80GB HBM3/ },
  { name: "sim-l40s-a", gpus: /4 × NVIDIA L40S/ },
  { name: "sim-cpu-a", gpus: null },
];

test("a wrong password is refused with a clear message", async ({ page }) => {
  await forgetSession(page);
  const facts = devFacts();
  await page.goto(`${facts.consoleUrl}/sign-in`);
  await page.getByTestId("signin-username").fill(facts.adminUser);
  await page.getByTestId("signin-password").fill("definitely-not-it");
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("signin-error")).toBeVisible();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.screenshot({ path: `${ARTIFACTS}/sign-in-error-en.png` });
});

test("runs under a nonce CSP that no other site can frame, and never shows the token to scripts", async ({
  page,
}) => {
  await forgetSession(page);
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const facts = devFacts();
  const answer = await page.goto(`${facts.consoleUrl}/sign-in`);
  const policy = answer?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/frame-ancestors 'none'/);
  expect(policy).toMatch(/script-src [^;]*'nonce-/);
  expect(answer?.headers()["x-frame-options"]).toBe("DENY");
  const login = page.waitForResponse((r) => r.url().includes("/api/trpc/auth.login"));
  await fillSignInAsAdmin(page);
  const loginBody = await (await login).text();
  expect(loginBody).not.toMatch(/"token"/);
  await expect(page).toHaveURL(/\/cluster$/);
  expect(violations).toEqual([]);
});

test("signs in, lists the simulated fleet, opens a node, and switches to Turkish", async ({
  page,
}) => {
  await forgetSession(page);
  await signInAsAdmin(page);
  await page.getByTestId("nav-nodes").click();
  const table = page.getByTestId("nodes-table");
  for (const node of FLEET) {
    const row = table.locator(`[data-testid="node-row"][data-node-name="${node.name}"]`);
    await expect(row.getByTestId("node-state")).toHaveText(/ready/i);
    await expect(row.getByTestId("node-simulated")).toBeVisible();
    if (node.gpus) await expect(row).toContainText(node.gpus);
    else await expect(row).toContainText("CPU only");
  }
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nodes");
  await page.screenshot({ path: `${ARTIFACTS}/nodes-en.png`, fullPage: true });

  await table.locator('[data-node-name="sim-h100-a"]').getByTestId("node-link").click();
  const gpus = page.getByTestId("node-gpus-table").getByTestId("gpu-row");
  await expect(gpus).toHaveCount(8);
  await expect(gpus.first()).toContainText("NVIDIA H100 80GB HBM3");
  await page.screenshot({ path: `${ARTIFACTS}/node-detail-en.png`, fullPage: true });

  await chooseLanguage(page, "tr");
  await expect(page.getByRole("heading", { name: "Bilgiler" })).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/node-detail-tr.png`, fullPage: true });

  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Düğümler");
  const cpuRow = page.getByTestId("nodes-table").locator('[data-node-name="sim-cpu-a"]');
  await expect(cpuRow).toContainText("Yalnızca CPU");
  // Displayed text is cased by the Turkish rules: "hazır" → "HAZIR", "simüle" → "SİMÜLE" (dotted İ).
  await expect(cpuRow.getByTestId("node-state")).toHaveText("HAZIR");
  await expect(cpuRow.getByTestId("node-simulated")).toHaveText("SİMÜLE");
  await page.screenshot({ path: `${ARTIFACTS}/nodes-tr.png`, fullPage: true });

  // The choice of language survives a reload.
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Düğümler");
  // The language is also kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});

test("the node list refreshes without a reload", async ({ page }) => {
  await openConsole(page);
  await page.getByTestId("nav-nodes").click();
  const row = page.getByTestId("nodes-table").locator('[data-node-name="sim-h100-a"]');
  await expect(row).toBeVisible();
  await row.getByTestId("node-link").click();
  const firstCard = page.getByTestId("gpu-row").first();
  const before = await firstCard.innerText();
  // Simulated utilisation moves every heartbeat (2 s); the page must follow without navigation.
  await expect.poll(async () => firstCard.innerText(), { timeout: 20_000 }).not.toBe(before);
});
