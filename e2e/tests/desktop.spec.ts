// The console as a desktop application, in Chromium: its manifest and service worker pass the
// browser's own installability check (DevTools protocol), the window as display-mode standalone
// is titled with the page and the cluster and captured in both languages (screenshots in
// e2e/artifacts/), a node, a model and a replica's log open in windows of their own that share the
// session, a hidden column stays hidden, a parked model and a node's certificate near expiry raise
// desktop notifications, and the shell survives the control plane going away and comes back with
// it by itself.
//
// For the outage the spec runs a console of its own (`llmgw web`) whose way to the dev fleet's
// control plane is a TCP relay started here: closing the relay is, to the console, exactly a
// stopped control plane (connections refused), without stopping the server the other specs use.
import { readFileSync } from "node:fs";
import { createServer, connect, type Server, type Socket } from "node:net";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { join } from "node:path";
import {
  freePort,
  joinAs,
  spawnLlmgw,
  tempDir,
  type SpawnedProcess,
  type TempDir,
} from "@llmgw/testing";
import { adminApi, seed } from "./factories";
import { ADMIN_SESSION_PATH, ARTIFACTS, devFacts } from "./facts";
import { chooseLanguage } from "./session";

/** The installed window's size in the screenshots (the other specs' viewport). */
const STANDALONE_VIEWPORT = { width: 1440, height: 900 };

/**
 * Shows the page as an installed window would: `(display-mode: standalone)` matches. Chromium 150
 * ignores display-mode in DevTools' Emulation.setEmulatedMedia (matchMedia keeps answering
 * "browser"; this is why the title once read "llmgw" here), so the query is answered by an init
 * script instead: simulated, for the console's own check of the window mode.
 */
async function openAsStandalone(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const realMatchMedia = window.matchMedia.bind(window);
    // A real MediaQueryList that matches ("all"), so listeners work as on a real one.
    window.matchMedia = (query: string) =>
      realMatchMedia(query.includes("display-mode: standalone") ? "all" : query);
  });
  await page.reload();
}

/**
 * Records every desktop notification the page makes (and every badge it sets), still showing it:
 * the real Notification class is wrapped, not replaced.
 */
const CAPTURE_NOTIFICATIONS = `(() => {
  const Real = window.Notification;
  window.__notified = [];
  window.__badges = [];
  if (Real) {
    window.Notification = class extends Real {
      constructor(title, options) {
        super(title, options);
        window.__notified.push({ title, body: options && options.body });
      }
    };
  }
  const setAppBadge = navigator.setAppBadge && navigator.setAppBadge.bind(navigator);
  if (setAppBadge)
    navigator.setAppBadge = (count) => {
      window.__badges.push(count);
      return setAppBadge(count);
    };
})();`;

interface Captured {
  __notified: { title: string; body?: string }[];
  __badges: number[];
}

test.describe("installed", () => {
  // Chromium never offers to install from an incognito profile, which every new Playwright context
  // is; this test runs in a browser profile on disk, given the admin's saved session.
  let profile: TempDir;
  let context: BrowserContext;

  test.beforeAll(async ({ playwright, launchOptions }) => {
    profile = await tempDir("desktop-profile");
    context = await playwright.chromium.launchPersistentContext(profile.path, {
      ...launchOptions,
      viewport: STANDALONE_VIEWPORT,
    });
    const session = JSON.parse(readFileSync(ADMIN_SESSION_PATH, "utf8")) as {
      cookies: Parameters<BrowserContext["addCookies"]>[0];
    };
    await context.addCookies(session.cookies);
  });

  test.afterAll(async () => {
    await context.close();
    await profile.remove();
  });

  let isCapturing = false;
  /** Notifications allowed for the console, and every one it makes recorded (see above). */
  async function captureNotifications(): Promise<void> {
    if (isCapturing) return;
    isCapturing = true;
    await context.grantPermissions(["notifications"], { origin: devFacts().consoleUrl });
    await context.addInitScript(CAPTURE_NOTIFICATIONS);
  }

  test("the console passes Chromium's installability check", async () => {
    const page = await context.newPage();
    await adminApi().auth.setLocale.mutate({ locale: "en" });
    await page.goto(`${devFacts().consoleUrl}/cluster`);
    await expect(page.getByTestId("current-user")).toBeVisible();
    // The worker must be in control before Chromium judges the app (it then has a fetch handler).
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const cdp = await page.context().newCDPSession(page);
    const manifest = await cdp.send("Page.getAppManifest");
    expect(manifest.errors).toEqual([]);
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    const { installabilityErrors } = await cdp.send("Page.getInstallabilityErrors");
    expect(installabilityErrors).toEqual([]);

    // In a browser tab the title is the product's; as an installed window, the page and cluster.
    await expect(page).toHaveTitle("llmgw");
    await openAsStandalone(page);
    const cluster = new URL(devFacts().consoleUrl).host;
    await expect(page).toHaveTitle(`Cluster · ${cluster} — llmgw`);
    await page.getByTestId("nav-nodes").click();
    await expect(page.getByTestId("node-row").first()).toBeVisible();
    await expect(page).toHaveTitle(`Nodes · ${cluster} — llmgw`);
    await page.screenshot({ path: `${ARTIFACTS}/desktop-window-en.png` });
    await chooseLanguage(page, "tr");
    await expect(page).toHaveTitle(`Düğümler · ${cluster} — llmgw`);
    await page.screenshot({ path: `${ARTIFACTS}/desktop-window-tr.png` });
    await chooseLanguage(page, "en");
    await page.close();
  });

  test("a node opens in a window of its own, signed in as the same person", async () => {
    const page = await context.newPage();
    await page.goto(`${devFacts().consoleUrl}/nodes`);
    const row = page.getByTestId("node-row").first();
    await expect(row).toBeVisible();
    const nodeName = await row.getAttribute("data-node-name");
    const nodeId = await row.getAttribute("data-node-id");

    const opened = context.waitForEvent("page");
    await row.getByTestId("row-menu").click();
    await page.getByTestId("open-in-new-window").click();
    const nodeWindow = await opened;
    await expect(nodeWindow).toHaveURL(`${devFacts().consoleUrl}/nodes/${nodeId}`);
    // The node itself, not the sign-in page: the window has the session.
    await expect(nodeWindow.getByRole("heading", { level: 1 })).toHaveText(nodeName ?? "");
    await expect(nodeWindow.getByTestId("current-user")).toBeVisible();
    await nodeWindow.close();

    // Shift+Enter on the selected row does the same.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("ArrowDown");
    const byKeyboard = context.waitForEvent("page");
    await page.keyboard.press("Shift+Enter");
    const second = await byKeyboard;
    await expect(second).toHaveURL(`${devFacts().consoleUrl}/nodes/${nodeId}`);
    await expect(page).toHaveURL(`${devFacts().consoleUrl}/nodes`);
    await second.close();
    await page.close();
  });

  test("a parked model raises one desktop notification of the kinds chosen", async () => {
    const name = "e2e-desk-parked";
    const consoleUrl = devFacts().consoleUrl;
    await captureNotifications();
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/account`);
    await expect(page.getByTestId("notifications-permission")).toHaveAttribute(
      "data-permission",
      "granted",
    );
    await expect(page.getByTestId("notify-kind-modelParked")).toBeChecked();
    // Engine failures come before the parking; turned off here, none of them may pop up.
    await page.getByTestId("notify-kind-engineFailed").uncheck();

    // A simulated engine that exits as it starts: five failed starts in a row park the model
    // (the dev fleet's failure backoff is short, see global-setup.ts).
    await seed.model({
      name,
      source: `file:///var/lib/llmgw/sim/${name}`,
      profiles: [{ name: "sim", engine: "sim", memory_gb: 1, args: ["--fault", "crash-after:0"] }],
      replicas: { min: 1, max: 1 },
    });
    try {
      const titles = () =>
        page.evaluate(() => (window as unknown as Captured).__notified.map((n) => n.title));
      await expect
        .poll(titles, { timeout: 90_000 })
        .toContain(`Model ${name} is parked or cannot be placed`);
      expect((await titles()).filter((title) => /engine/i.test(title))).toEqual([]);
      // The installed app's icon carries the count of what needs attention.
      const badges = await page.evaluate(() => (window as unknown as Captured).__badges);
      expect(badges.some((count) => count > 0)).toBe(true);
    } finally {
      await adminApi().models.remove.mutate({ name });
      await page.close();
    }
  });

  test("a node whose certificate nears expiry raises a desktop notification", async () => {
    // global-setup gives the control plane a warning window longer than a certificate lives, so
    // the node joining here is announced (certificate.expiring) within a tick of its join.
    const consoleUrl = devFacts().consoleUrl;
    await captureNotifications();
    const page = await context.newPage();
    // The watcher's first answer is the past; the node must join after it.
    const firstFeed = page.waitForResponse((response) => response.url().includes("events.list"));
    await page.goto(`${consoleUrl}/account`);
    await page.getByTestId("notify-kind-certificateExpiring").check();
    await firstFeed;

    const nodeId = `e2e-desk-cert-${Date.now()}`;
    const { token } = await adminApi().joinTokens.create.mutate({
      ttlSeconds: 300,
      uses: 1,
      description: "desktop spec: a certificate near expiry",
    });
    const caPem = readFileSync(join(process.env.LLMGW_E2E_HOME ?? "", "pki", "ca.crt"), "utf8");
    // A node that joined and never connected: it holds a certificate, as a dead agent's node does.
    await joinAs({ agentUrl: devFacts().agentUrl, caPem, joinToken: token }, nodeId);
    const titles = () =>
      page.evaluate(() => (window as unknown as Captured).__notified.map((n) => n.title));
    await expect
      .poll(titles, { timeout: 60_000 })
      .toContain(`The certificate of node ${nodeId} expires soon`);
    await page.close();
  });

  test("a model and a replica's log open in windows of their own", async () => {
    const consoleUrl = devFacts().consoleUrl;
    const page = await context.newPage();
    await page.goto(`${consoleUrl}/models`);
    const modelRow = page.getByTestId("model-row").first();
    await expect(modelRow).toBeVisible();
    const model = (await modelRow.getAttribute("data-model-name")) ?? "";
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("ArrowDown");
    await expect(modelRow).toHaveAttribute("aria-selected", "true");
    const byKeyboard = context.waitForEvent("page");
    await page.keyboard.press("Shift+Enter");
    const modelWindow = await byKeyboard;
    await expect(modelWindow).toHaveURL(
      `${consoleUrl}/replicas?model=${encodeURIComponent(model)}`,
    );
    // The model's replicas, not the sign-in page: the window has the session.
    await expect(modelWindow.getByTestId("current-user")).toBeVisible();
    await expect(modelWindow.getByTestId("replicas-model-filter")).toHaveValue(model);
    await expect(page).toHaveURL(`${consoleUrl}/models`);
    await modelWindow.close();

    // A replica opens as its engine's log; its row menu opens that in a window of its own.
    await page.goto(`${consoleUrl}/replicas`);
    const replicaRow = page.getByTestId("replica-row").first();
    await expect(replicaRow).toBeVisible({ timeout: 60_000 });
    const replicaId = (await replicaRow.getAttribute("data-replica-id")) ?? "";
    const opened = context.waitForEvent("page");
    await replicaRow.getByTestId("row-menu").click();
    await page.getByTestId("open-in-new-window").click();
    const logsWindow = await opened;
    await expect(logsWindow).toHaveURL(
      new RegExp(`/nodes/[^/]+/logs\\?source=${encodeURIComponent(replicaId)}$`),
    );
    await expect(logsWindow.getByTestId("logs-source")).toHaveValue(replicaId);
    await expect(page).toHaveURL(`${consoleUrl}/replicas`);
    await Promise.all([logsWindow.close(), page.close()]);
  });

  test("a column hidden in the nodes table stays hidden after a reload", async () => {
    const page = await context.newPage();
    await page.goto(`${devFacts().consoleUrl}/nodes`);
    const headers = page.getByTestId("nodes-table").locator("thead th");
    await expect(page.getByTestId("node-row").first()).toBeVisible();
    await expect(headers.filter({ hasText: "Agent" })).toHaveCount(1);
    const shownCount = await headers.count();
    await page.getByTestId("column-chooser").locator("summary").click();
    await page.getByTestId("column-toggle-agentVersion").uncheck();
    await expect(headers).toHaveCount(shownCount - 1);
    await expect(headers.filter({ hasText: "Agent" })).toHaveCount(0);

    await page.reload();
    await expect(page.getByTestId("node-row").first()).toBeVisible();
    await expect(headers).toHaveCount(shownCount - 1);
    await expect(headers.filter({ hasText: "Agent" })).toHaveCount(0);
    // Shown again, for whoever looks at this table next on this profile.
    await page.getByTestId("column-chooser").locator("summary").click();
    await page.getByTestId("column-toggle-agentVersion").check();
    await expect(headers).toHaveCount(shownCount);
    await page.close();
  });
});

/** A TCP relay to the control plane that can be cut and restored on the same port. */
class ControlPlaneRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  constructor(
    readonly port: number,
    private readonly target: URL,
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(Number(this.target.port), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

test.describe("with the control plane out of reach", () => {
  let relay: ControlPlaneRelay;
  let web: SpawnedProcess;
  let consoleUrl: string;

  test.beforeAll(async () => {
    relay = new ControlPlaneRelay(await freePort(), new URL(devFacts().apiUrl));
    await relay.open();
    const webPort = await freePort();
    consoleUrl = `http://127.0.0.1:${webPort}`;
    web = spawnLlmgw(["web"], {
      name: "web (desktop spec)",
      env: {
        LLMGW_API_URL: `http://127.0.0.1:${relay.port}`,
        LLMGW_WEB_PORT: String(webPort),
      },
    });
    await web.waitForOutput(/Ready in|started server|Local:/i, 60_000);
  });

  test.afterAll(async () => {
    await web.stop();
    await relay.cut();
  });

  test("the shell stays, says so with the time of its data, and reconnects by itself", async ({
    page,
  }) => {
    // The session cookie is the dev console's: cookies do not tell ports apart.
    await page.goto(`${consoleUrl}/nodes`);
    const rows = page.getByTestId("node-row");
    await expect(rows.first()).toBeVisible();
    const rowCount = await rows.count();

    await relay.cut();
    const banner = page.getByTestId("unreachable-banner");
    await expect(banner).toContainText(/cannot be reached.*data of \d/);
    // The last view stays readable under the banner.
    await expect(rows).toHaveCount(rowCount);

    // Opened afresh while the control plane is away: the shell still stands, named.
    await page.reload();
    await expect(page.getByTestId("current-user")).toBeVisible();
    await expect(banner).toContainText("cannot be reached");

    await relay.open();
    await expect(banner).toBeHidden({ timeout: 60_000 });
    await expect(rows.first()).toBeVisible();
  });
});
