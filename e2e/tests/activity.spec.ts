// Logs, keys, usage and events in a real browser against `llmgw dev`: a node's engine log follows
// while requests arrive; a key created in the console streams a chat completion through /v1 with
// the official `openai` client, shows up in usage and in events, and is revoked; a failed request
// listed on Usage opens its node's log on its lines; the same views read in Turkish with Turkish
// numbers. Screenshots of each view in both languages land in e2e/artifacts/.
import OpenAI from "openai";
import { expect, test, type Page } from "@playwright/test";
import { ARTIFACTS, devFacts } from "./facts";
import { adminApi, seed } from "./factories";
import { chooseLanguage, openConsole } from "./session";

const READY_TIMEOUT_MS = 90_000;
const MODEL = "sim-chat";
const OWNER = "team:e2e-console";

function openai(apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${devFacts().apiUrl}/v1`, maxRetries: 0 });
}

/** Waits for a ready replica of MODEL on the Replicas page and opens its node's logs. */
async function openReplicaLogs(page: Page): Promise<string> {
  await page.getByTestId("nav-replicas").click();
  await page.getByTestId("replicas-model-filter").selectOption(MODEL);
  const ready = page.locator(`[data-testid="replica-row"][data-phase="ready"]`).first();
  await expect(ready).toBeVisible({ timeout: READY_TIMEOUT_MS });
  const replicaId = (await ready.getAttribute("data-replica-id")) ?? "";
  await ready.getByTestId("replica-node-link").click();
  await page.getByTestId("node-logs-link").click();
  await expect(page.getByTestId("logs-page")).toBeVisible();
  await page.getByTestId("logs-source").selectOption(replicaId);
  await expect(page).toHaveURL(new RegExp(`source=${replicaId}`));
  return replicaId;
}

/**
 * Acknowledges on Events until the sidebar's attention badge is gone. The attention count loads on
 * its own, so this retries.
 */
async function acknowledgeAll(page: Page, { askStore }: { askStore: boolean }) {
  const badge = page.getByTestId("events-attention");
  await expect(async () => {
    const acknowledge = page.getByTestId("events-acknowledge");
    // The button goes as soon as the console's count reaches 0, which may be between the look and
    // the click: a click without a timeout then waits for it until the test's end. A short one
    // that fails makes the loop try again.
    if (await acknowledge.isVisible()) await acknowledge.click({ timeout: 2_000 });
    // Before the test, the store says so, not only the badge: a badge whose first poll has not
    // answered yet shows nothing either, and would let warnings from before the test through as
    // if they were new.
    if (askStore) {
      const api = adminApi();
      const { count, newestId } = await api.events.attention.query();
      // When the store and the console disagree, say which events the store still counts.
      const unacknowledged =
        count === 0
          ? []
          : (await api.events.list.query({ limit: 50, severities: ["warning", "error"] })).events
              .filter((event) => !event.isAcknowledged)
              .map((event) => `${event.id} ${event.at} ${event.kind} ${event.subjectId}`);
      expect(count, `store newestId ${newestId}: ${unacknowledged.join("; ")}`).toBe(0);
    }
    await expect(badge).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test.describe.configure({ mode: "serial" });

test("a node's engine log follows while requests arrive; search highlights, copy copies", async ({
  page,
  context,
}) => {
  const facts = devFacts();
  expect(facts.apiKey, "llmgw dev writes an apiKey to dev.json").toBeTruthy();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: facts.consoleUrl,
  });
  await openConsole(page);
  await openReplicaLogs(page);
  await expect(page.getByTestId("logs-follow")).toBeChecked();
  await expect(page.getByTestId("logs-output")).toContainText("sim-engine");
  const requestLines = page
    .getByTestId("log-line")
    .filter({ hasText: "Received request chatcmpl-" });
  const before = await requestLines.count();

  // New lines come from the engine itself: each request through /v1 is one "Received request
  // chatcmpl-<id>" JSON line (as vLLM logs it) in the log of the replica that served it. sim-chat may have several replicas, so requests keep coming until this
  // one has logged two more; the page is never reloaded, follow mode (every 5 s) brings them in.
  const client = openai(facts.apiKey ?? "");
  await expect
    .poll(
      async () => {
        await client.chat.completions.create({
          model: MODEL,
          messages: [{ role: "user", content: "a line for the log" }],
        });
        return requestLines.count();
      },
      { timeout: 40_000, intervals: [1_000] },
    )
    .toBeGreaterThanOrEqual(before + 2);
  await expect(page.getByTestId("logs-follow")).toBeChecked();

  await page.getByTestId("logs-search").fill("chat/completions");
  const matches = page.getByTestId("logs-match-count");
  await expect(matches).toBeVisible();
  expect(Number(await matches.getAttribute("data-count"))).toBeGreaterThanOrEqual(before + 2);
  await expect(page.getByTestId("logs-output").locator("mark").first()).toHaveText(
    "chat/completions",
  );
  await page.screenshot({ path: `${ARTIFACTS}/logs-en.png`, fullPage: true });

  await page.getByTestId("logs-copy").click();
  await expect(page.getByTestId("logs-copied")).toHaveAttribute("data-state", "copied");
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain("Received request chatcmpl-");

  await page.getByTestId("logs-source").selectOption("agent");
  await expect(page.getByTestId("logs-output")).not.toContainText("Received request chatcmpl-");

  await chooseLanguage(page, "tr");
  await expect(page.getByTestId("logs-follow").locator("xpath=..")).toContainText("Takip et");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("günlükleri");
  await page.screenshot({ path: `${ARTIFACTS}/logs-tr.png`, fullPage: true });
  // The language is kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});

test("a key created in the console streams through /v1, shows in usage and events, and is revoked", async ({
  page,
  context,
}) => {
  const facts = devFacts();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: facts.consoleUrl,
  });
  await openConsole(page);
  await page.getByTestId("nav-keys").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API keys");
  await page.getByTestId("create-key").click();
  await page.getByTestId("key-owner").fill(OWNER);
  await page.getByTestId("key-models").fill("sim-*");
  await page.getByTestId("key-rpm").fill("1500");
  await page.getByTestId("key-expires").selectOption("30");
  await page.getByTestId("key-create-submit").click();

  const value = page.getByTestId("created-key-value");
  await expect(value).toHaveText(/^llmgw_/);
  const apiKey = (await value.textContent()) ?? "";
  await expect(page.getByTestId("created-key-warning")).toContainText("shown only this once");
  await page.getByTestId("created-key-copy").click();
  await expect(page.getByTestId("created-key-copied")).toHaveAttribute("data-state", "copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
  await page.screenshot({ path: `${ARTIFACTS}/keys-created-en.png`, fullPage: true });
  await page.getByTestId("created-key-done").click();
  await expect(page.getByTestId("created-key")).toHaveCount(0);
  // The list never holds the secret, only its prefix.
  await expect(page.getByTestId("keys-table")).not.toContainText(apiKey);

  const row = page.locator(`[data-testid="key-row"][data-owner="${OWNER}"]`).first();
  await expect(row.getByTestId("key-state")).toHaveAttribute("data-state", "active");
  await expect(row).toContainText("1,500 req/min");
  const keyId = (await row.getAttribute("data-key-id")) ?? "";

  const stream = await openai(apiKey).chat.completions.create({
    model: MODEL,
    messages: [{ role: "user", content: "hello from the console's key" }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  let completionTokens = 0;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta.content ?? "";
    completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
  }
  expect(text.length).toBeGreaterThan(0);
  expect(completionTokens).toBeGreaterThan(0);
  await expect(row.getByTestId("key-last-used")).not.toHaveText("never", { timeout: 30_000 });
  await page.screenshot({ path: `${ARTIFACTS}/keys-en.png`, fullPage: true });

  await page.getByTestId("nav-usage").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Usage");
  await page.getByTestId("usage-group").selectOption("owner");
  const usageRow = page.locator(`[data-testid="usage-row"][data-group="${OWNER}"]`);
  await expect(usageRow.getByTestId("usage-requests")).toHaveText("1", { timeout: 30_000 });
  await expect(usageRow.getByTestId("usage-completion-tokens")).toHaveText(
    completionTokens.toLocaleString("en"),
  );
  await expect(usageRow.getByTestId("usage-p50")).toHaveText(/^\d[\d,]* ms$/);
  await expect(page.getByTestId("usage-chart-requests").locator("svg").first()).toBeVisible();
  await page.getByTestId("usage-group").selectOption("model");
  await expect(
    page.locator(`[data-testid="usage-row"][data-group="${MODEL}"]`).getByTestId("usage-requests"),
  ).not.toHaveText("0");
  await page.screenshot({ path: `${ARTIFACTS}/usage-en.png`, fullPage: true });

  await page.getByTestId("nav-events").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Events");
  const created = page.locator(
    `[data-testid="event-row"][data-kind="key.created"][data-subject-id="${keyId}"]`,
  );
  await expect(created.getByTestId("event-message")).toContainText(`admin created key`);
  await expect(created.getByTestId("event-message")).toContainText(OWNER);
  await expect(
    page.locator('[data-testid="event-row"][data-kind="replica.started"]').first(),
  ).toContainText("is ready");
  await page.getByTestId("events-filter-kind").selectOption("replica.started");
  await expect(page).toHaveURL(/kind=replica\.started/);
  const started = page.getByTestId("event-row");
  await expect(started.first()).toBeVisible();
  expect(
    await page.locator('[data-testid="event-row"]:not([data-kind="replica.started"])').count(),
  ).toBe(0);
  await started.first().getByTestId("event-subject-link").click();
  await expect(page).toHaveURL(/\/replicas\?model=/);
  await page.goBack();
  await page.getByTestId("events-filter-clear").click();
  await expect(created).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/events-en.png`, fullPage: true });

  await page.getByTestId("nav-keys").click();
  await row.getByTestId("key-revoke").click();
  await expect(page.getByTestId("revoke-confirm")).toContainText(OWNER);
  await page.getByTestId("revoke-confirm-ok").click();
  await expect(row.getByTestId("key-state")).toHaveAttribute("data-state", "revoked");
  await expect(
    openai(apiKey).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "x" }],
    }),
  ).rejects.toMatchObject({ status: 401 });
});

test("a failed request is listed on Usage, and Show on node opens its node's log on its lines", async ({
  page,
}) => {
  const name = "e2e-failing";
  // A simulated engine that answers every /v1 request with 500: each one is a failed request.
  await seed.model({
    name,
    source: `file:///var/lib/llmgw/sim/${name}`,
    profiles: [{ name: "sim", engine: "sim", memory_gb: 1, args: ["--fault", "status-5xx:1"] }],
    replicas: { min: 1, max: 1 },
  });
  // Until its replica is ready the gateway answers 503 itself; then the engine's 500 comes through.
  // Each try has its own id, so the one that reached the engine is listed once.
  let requestId = "";
  await expect
    .poll(
      async () => {
        requestId = `e2e-failed-${Date.now()}`;
        const res = await fetch(`${devFacts().apiUrl}/v1/chat/completions`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${devFacts().apiKey ?? ""}`,
            "content-type": "application/json",
            "x-request-id": requestId,
          },
          body: JSON.stringify({ model: name, messages: [{ role: "user", content: "fail" }] }),
        });
        await res.text();
        return res.status;
      },
      { timeout: READY_TIMEOUT_MS, intervals: [2_000] },
    )
    .toBe(500);

  await openConsole(page);
  await page.getByTestId("nav-usage").click();
  await page.getByTestId("failed-model-filter").selectOption(name);
  const row = page.locator(`[data-testid="failed-row"][data-request-id="${requestId}"]`);
  await expect(row.getByTestId("failed-status")).toHaveText("500", { timeout: 30_000 });
  await page.screenshot({ path: `${ARTIFACTS}/failed-requests-en.png`, fullPage: true });
  await row.getByTestId("failed-show-on-node").click();

  await expect(page.getByTestId("logs-page")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/nodes/[^/]+/logs\\?request=${requestId}$`));
  await expect(page.getByTestId("logs-request")).toHaveValue(requestId);
  const found = page.getByTestId("logs-request-found");
  await expect(found).toBeVisible();
  expect(Number(await found.getAttribute("data-count"))).toBeGreaterThanOrEqual(2);
  const output = page.getByTestId("logs-output");
  await expect(output).toContainText(`Received request chatcmpl-${requestId}`);
  await expect(output).toContainText(`Finished request chatcmpl-${requestId}`);
  await expect(output).toContainText('"status":500');
  await page.screenshot({ path: `${ARTIFACTS}/failed-request-logs-en.png`, fullPage: true });

  await adminApi().models.remove.mutate({ name });
});

test("a crashing engine raises the sidebar's attention badge; acknowledging on Events clears it", async ({
  page,
}) => {
  const name = "e2e-crashy";
  const badge = page.getByTestId("events-attention");
  await openConsole(page);
  // Start with nothing to look at: whatever earlier tests raised is acknowledged first.
  await page.getByTestId("nav-events").click();
  await acknowledgeAll(page, { askStore: true });

  // A simulated engine told to crash a second after it starts: its replica fails, which is an error.
  await seed.model({
    name,
    source: `file:///var/lib/llmgw/sim/${name}`,
    profiles: [{ name: "sim", engine: "sim", memory_gb: 1, args: ["--fault", "crash-after:1"] }],
    replicas: { min: 1, max: 1 },
  });
  await page.getByTestId("nav-models").click();

  // The badge shows on every page, in the sidebar next to Events.
  await expect(badge).toBeVisible({ timeout: READY_TIMEOUT_MS });
  expect(Number(await badge.getAttribute("data-count"))).toBeGreaterThanOrEqual(1);
  await expect(badge).toHaveAttribute("title", /needs? attention/);
  await page.screenshot({ path: `${ARTIFACTS}/attention-en.png`, fullPage: true });

  // Removed, so it stops failing; then acknowledged, so the badge goes.
  const row = page.locator(`[data-testid="model-row"][data-model-name="${name}"]`);
  await row.getByTestId("model-remove").click();
  await page.getByTestId("remove-confirm-ok").click();
  await expect(row).toHaveCount(0);
  await page.getByTestId("nav-events").click();
  await expect(
    page.locator('[data-testid="event-row"][data-kind="replica.failed"]').first(),
  ).toBeVisible();
  await expect(page.getByTestId("events-attention-count")).toBeVisible();
  // What the console shows: acknowledged there, its count and the sidebar's badge go.
  await acknowledgeAll(page, { askStore: false });
  await expect(page.getByTestId("events-attention-count")).toHaveCount(0);
});

test("keys, usage and events read in Turkish, with Turkish numbers and casing", async ({
  page,
}) => {
  await openConsole(page);
  await chooseLanguage(page, "tr");

  await page.getByTestId("nav-keys").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API anahtarları");
  const row = page.locator(`[data-testid="key-row"][data-owner="${OWNER}"]`).first();
  await expect(row).toContainText("1.500 istek/dk");
  await expect(row.getByTestId("key-state")).toHaveText("İPTAL EDİLDİ");
  await page.screenshot({ path: `${ARTIFACTS}/keys-tr.png`, fullPage: true });

  await page.getByTestId("nav-usage").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kullanım");
  await expect(page.getByTestId("usage-range-24h")).toHaveText("24 saat");
  const usageRow = page.locator(`[data-testid="usage-row"][data-group="${MODEL}"]`);
  // Turkish writes the percent sign first: %0, not 0%.
  await expect(usageRow.locator("td").nth(3)).toHaveText(/^%\d/);
  await expect(usageRow.getByTestId("usage-p95")).toHaveText(/^\d[\d.]*( ms)$/);
  await page.getByTestId("usage-range-7d").click();
  await expect(page.getByTestId("usage-range-7d")).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${ARTIFACTS}/usage-tr.png`, fullPage: true });

  await page.getByTestId("nav-events").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Olaylar");
  const created = page.locator('[data-testid="event-row"][data-kind="key.created"]').first();
  await expect(created.getByTestId("event-kind")).toHaveText("Anahtar oluşturuldu");
  // Displayed casing follows Turkish rules: "bilgi" → "BİLGİ" with a dotted İ.
  await expect(created.getByTestId("event-severity")).toHaveText("BİLGİ");
  await expect(created).toContainText(/saniye önce|dakika önce/);
  await page.screenshot({ path: `${ARTIFACTS}/events-tr.png`, fullPage: true });
  // The language is kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});
