// The cluster view in a real browser: one heatmap cell per card (checked against the nodes API),
// a card's colour follows the load we send to its model through /v1 (pixel probe on the canvas),
// the metric switch recolours, a click and the command palette open nodes, the node page charts,
// and the page reads in Turkish. Screenshots land in e2e/artifacts/.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ARTIFACTS, devFacts } from "./facts";
import { adminApi, type ApiClient } from "./factories";
import { chooseLanguage, openConsole } from "./session";

const READY_TIMEOUT_MS = 90_000;
const GPU_MODEL = "sim-gpu-chat";

/** The cluster view with the saved admin session, once its heatmap is drawn. */
async function openCluster(page: Page) {
  await openConsole(page);
  await expect(page.getByTestId("heatmap-canvas")).toBeVisible();
}

/** A replica as `replicas.list` answers it. */
type Replica = Awaited<ReturnType<ApiClient["replicas"]["list"]["query"]>>[number];

async function readyGpuReplica(): Promise<Replica> {
  let found: Replica | undefined;
  await expect
    .poll(
      async () => {
        const replicas = await adminApi().replicas.list.query({ model: GPU_MODEL });
        found = replicas.find((r) => r.phase === "ready" && r.gpuIndexes.length > 0);
        return found !== undefined;
      },
      { timeout: READY_TIMEOUT_MS, message: `a ready ${GPU_MODEL} replica` },
    )
    .toBe(true);
  if (found === undefined) throw new Error(`no ready ${GPU_MODEL} replica with GPUs`);
  return found;
}

async function cellCenter(canvas: Locator, nodeId: string, index: number) {
  const center = await canvas.evaluate(
    (element, [node, card]) =>
      (
        element as unknown as {
          heatmapProbe: { cellCenter(n: string, c: number): { x: number; y: number } | null };
        }
      ).heatmapProbe.cellCenter(node, card),
    [nodeId, index] as const,
  );
  expect(center, `card ${index} of ${nodeId} on the heatmap`).not.toBeNull();
  if (center === null) throw new Error(`card ${index} of ${nodeId} is not on the heatmap`);
  return center;
}

/** The canvas pixel at a CSS-pixel position, as [r, g, b]. */
async function pixel(
  canvas: Locator,
  at: { x: number; y: number },
): Promise<[number, number, number]> {
  return canvas.evaluate((element, point) => {
    const c = element as HTMLCanvasElement;
    const ratio = c.width / c.clientWidth;
    const context = c.getContext("2d");
    if (!context) throw new Error("the heatmap canvas has no 2d context");
    const [r = NaN, g = NaN, b = NaN] = context.getImageData(
      Math.round(point.x * ratio),
      Math.round(point.y * ratio),
      1,
      1,
    ).data;
    return [r, g, b];
  }, at);
}

/** One streaming chat completion, read to its end (or until aborted). */
async function streamOnce(model: string, signal: AbortSignal, i: number): Promise<void> {
  const facts = devFacts();
  const response = await fetch(`${facts.apiUrl}/v1/chat/completions`, {
    method: "POST",
    signal,
    headers: { authorization: `Bearer ${facts.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      model,
      stream: true,
      max_tokens: 4000,
      messages: [{ role: "user", content: `keep the card busy ${i}` }],
    }),
  });
  const reader = response.body?.getReader();
  while (reader && !(await reader.read()).done);
}

/**
 * Keeps `count` streaming chat completions in flight against the model until aborted: the
 * simulator may finish a reply early, so each worker sends the next one as soon as one ends.
 */
function loadModel(model: string, count: number): AbortController {
  if (!devFacts().apiKey)
    throw new Error("dev.json has no apiKey: llmgw dev makes one on a first run");
  const abort = new AbortController();
  const worker = async (i: number) => {
    while (!abort.signal.aborted) {
      await streamOnce(model, abort.signal, i).catch(
        () => new Promise((resolve) => setTimeout(resolve, 200)),
      );
    }
  };
  for (let i = 0; i < count; i++) void worker(i);
  return abort;
}

test("the heatmap draws one cell per card of the fleet", async ({ page }) => {
  await openCluster(page);
  const nodes = await adminApi().nodes.list.query();
  const cards = nodes.reduce((sum, node) => sum + node.gpus.length, 0);
  expect(cards).toBeGreaterThan(0);
  const canvas = page.getByTestId("heatmap-canvas");
  await expect(canvas).toHaveAttribute("data-cell-count", String(cards));
  await expect(page.getByTestId("cluster-card-count")).toHaveText(`${cards} cards`);
  await expect(page.getByTestId("cluster-simulated")).toBeVisible();
  // The grid is one canvas, not a DOM node per card.
  const domNodes = await page
    .locator(".heatmap-panel")
    .evaluate((el) => el.querySelectorAll("*").length);
  expect(domNodes).toBeLessThanOrEqual(100);
  await expect(
    page.getByTestId("cluster-capacity").getByTestId("capacity-row").first(),
  ).toBeVisible();
  // The one control plane of this fleet leads, and the admin sees it.
  const planes = page.getByTestId("control-planes").getByTestId("control-plane");
  await expect(planes).toHaveCount(1);
  await expect(planes.first()).toHaveAttribute("data-role", "leader");
  await page.screenshot({ path: `${ARTIFACTS}/cluster-en.png` });
});

test("a card's colour follows its load, and the metric switch recolours it", async ({ page }) => {
  await openCluster(page);
  const replica = await readyGpuReplica();
  const canvas = page.getByTestId("heatmap-canvas");
  await page.getByTestId("metric-utilization").click();
  await expect(canvas).toHaveAttribute("data-metric", "utilization");
  const [firstCard] = replica.gpuIndexes;
  if (firstCard === undefined) throw new Error(`replica ${replica.id} holds no GPU`);
  const at = await cellCenter(canvas, replica.nodeId, firstCard);

  // Idle: the cool end of the scale (more blue than red).
  await expect
    .poll(
      async () => {
        const [r, , b] = await pixel(canvas, at);
        return b > r;
      },
      { timeout: 20_000, message: "the idle card is drawn cool" },
    )
    .toBe(true);
  const idle = await pixel(canvas, at);

  // The same card under memory: weights are resident, so it is warmer than its idle utilisation.
  await page.getByTestId("metric-memory").click();
  await expect(canvas).toHaveAttribute("data-metric", "memory");
  await expect(page.getByTestId("heatmap-legend")).toHaveAttribute("data-metric", "memory");
  await expect.poll(async () => pixel(canvas, at)).not.toEqual(idle);
  await page.getByTestId("metric-temperature").click();
  await expect(page.getByTestId("heatmap-legend")).toContainText("90");
  await page.getByTestId("metric-utilization").click();
  // Back on utilisation the card is cool again (idle readings jitter by a few buckets).
  await expect
    .poll(async () => {
      const [r, , b] = await pixel(canvas, at);
      return b > r;
    })
    .toBe(true);

  const load = loadModel(GPU_MODEL, 12);
  try {
    // Busy: the hot end (more red than blue), within a few heartbeats.
    await expect
      .poll(
        async () => {
          const [r, , b] = await pixel(canvas, at);
          return r > b + 60;
        },
        { timeout: 45_000, message: "the loaded card turns hot" },
      )
      .toBe(true);
    await canvas.hover({ position: at });
    const tooltip = page.getByTestId("heatmap-tooltip");
    await expect(tooltip).toContainText(GPU_MODEL);
    await expect(tooltip).toContainText(replica.id);
    await page.screenshot({ path: `${ARTIFACTS}/cluster-busy-en.png` });
  } finally {
    load.abort();
  }
});

test("a click on a card opens its node, with charts per card", async ({ page }) => {
  await openCluster(page);
  const nodes = await adminApi().nodes.list.query();
  const node = nodes.find((n) => n.name === "sim-h100-a");
  if (!node) throw new Error("the fleet has no node sim-h100-a");
  const canvas = page.getByTestId("heatmap-canvas");
  await canvas.click({ position: await cellCenter(canvas, node.id, 2) });
  await expect(page).toHaveURL(new RegExp(`/nodes/${node.id}$`));
  await expect(page.getByTestId("breadcrumbs")).toContainText("sim-h100-a");
  const charts = page.getByTestId("node-charts");
  await expect(charts.getByTestId("chart-utilization").locator("svg").first()).toBeVisible();
  await expect(charts.getByTestId("chart-memory")).toBeVisible();
  await expect(charts.getByTestId("chart-temperature")).toBeVisible();
  // A tooltip shown near the chart's foot sits above the legend, not beneath it.
  const chart = charts.getByTestId("chart-utilization");
  await expect(chart.locator(".recharts-tooltip-wrapper")).toHaveCount(1);
  await expect(chart.locator(".recharts-legend-wrapper")).toHaveCount(1);
  const layers = await chart.evaluate((element) => {
    const z = (selector: string) => {
      const found = element.querySelector(selector);
      return found ? Number(getComputedStyle(found).zIndex) || 0 : -1;
    };
    return { tooltip: z(".recharts-tooltip-wrapper"), legend: z(".recharts-legend-wrapper") };
  });
  expect(layers.legend).toBeGreaterThanOrEqual(0);
  expect(layers.tooltip).toBeGreaterThan(layers.legend);
  await page.screenshot({ path: `${ARTIFACTS}/node-en.png`, fullPage: true });

  await chooseLanguage(page, "tr");
  await expect(charts.getByRole("heading", { name: "Son dakikalar, kart başına" })).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/node-tr.png`, fullPage: true });
  // The language is kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});

test("the command palette jumps to a node, and ? lists the shortcuts", async ({ page }) => {
  await openCluster(page);
  await page.keyboard.press("Control+k");
  const input = page.getByTestId("palette-input");
  await expect(input).toBeFocused();
  await input.fill("sim-l40s");
  await expect(page.getByTestId("palette-list")).toContainText("sim-l40s-a");
  await page.screenshot({ path: `${ARTIFACTS}/palette-en.png` });
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/nodes\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("sim-l40s-a");

  await page.keyboard.press("?");
  await expect(page.getByTestId("help-overlay")).toContainText("Open the command palette");
  await page.screenshot({ path: `${ARTIFACTS}/help-en.png` });
  await page.keyboard.press("Escape");
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await expect(page).toHaveURL(/\/cluster$/);
});

test("the nodes table warns of a PCIe link below capacity and sorts by warnings", async ({
  page,
}) => {
  await openCluster(page);
  await page.getByTestId("nav-nodes").click();
  const row = page.locator('[data-testid="node-row"][data-node-name="sim-l40s-a"]');
  await expect(row.getByTestId("node-warnings")).toHaveAttribute("data-warnings", "pcie");
  await expect(row.getByTestId("node-warnings")).toContainText("PCIe link below max (1 card)");
  await page.getByTestId("sort-warnings").click();
  await page.getByTestId("sort-warnings").click();
  await expect(page.getByTestId("node-row").first()).toHaveAttribute(
    "data-node-name",
    "sim-l40s-a",
  );
  await page.getByTestId("nodes-filter").fill("warning");
  await expect(page.getByTestId("node-row")).toHaveCount(1);
  // Clicking the sort header scrolled the wide table sideways; show it from its first column.
  await page.getByTestId("nodes-table").evaluate((table) => table.parentElement?.scrollTo(0, 0));
  await page.screenshot({ path: `${ARTIFACTS}/nodes-warnings-en.png` });
});

test("in Turkish the cluster view's headings and numbers are Turkish", async ({ page }) => {
  await openCluster(page);
  await chooseLanguage(page, "tr");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Küme");
  await expect(page.getByTestId("metric-utilization")).toHaveText("Kullanım");
  await expect(page.getByRole("heading", { name: "GPU sınıfına göre kapasite" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Boşta duran replikalar" })).toBeVisible();
  // Turkish puts the percent sign first: %0 … %100.
  await expect(page.getByTestId("heatmap-legend")).toContainText("%100");
  await expect(page.getByTestId("cluster-card-count")).toHaveText(/^\d+ kart$/);
  await expect(page.getByTestId("cluster-capacity")).toContainText(/karttan \d+ tanesi kullanımda/);
  await page.screenshot({ path: `${ARTIFACTS}/cluster-tr.png` });

  await page.getByTestId("theme-switch").click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.screenshot({ path: `${ARTIFACTS}/cluster-light-tr.png` });
  await page.getByTestId("theme-switch").click();
  // The language is kept on the person (server side): back to English for the next tests.
  await chooseLanguage(page, "en");
});
