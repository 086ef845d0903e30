// A node's place in the building and its cordon, set from the console: the Location dialog puts
// the node in a rack (seen in the Nodes table's LOCATION), Cordon marks it beside its state, and
// the Facility page holds that rack and releases it, also read in Turkish. Everything the spec
// sets is taken away after. Screenshots land in e2e/artifacts/.
import { expect, test, type Page } from "@playwright/test";
import { adminApi } from "./factories";
import { ARTIFACTS, devFacts } from "./facts";
import { chooseLanguage, openConsole } from "./session";

const RACK = "e2e-r1";
const DOMAIN = `rack=${RACK}`;
let nodeId = "";
let nodeName = "";

async function restore() {
  const api = adminApi();
  if (nodeId) {
    await api.nodes.label.mutate({ id: nodeId, set: {}, remove: ["llmgw.io/rack"] });
    await api.nodes.cordon.mutate({ id: nodeId, state: null });
  }
  await api.facility.release.mutate({ domain: DOMAIN }).catch(() => undefined);
}

test.beforeAll(async () => {
  const nodes = await adminApi().nodes.list.query();
  const node = nodes[0];
  if (!node) throw new Error("llmgw dev started no agent");
  nodeId = node.id;
  nodeName = node.name;
  await restore();
});

test.afterAll(restore);

function nodeRow(page: Page) {
  return page.locator(`[data-testid="node-row"][data-node-id="${nodeId}"]`);
}

async function openNode(page: Page) {
  await page.getByTestId("nav-nodes").click();
  await nodeRow(page).getByTestId("node-link").click();
  await expect(page.getByTestId("node-detail")).toBeVisible();
}

test("sets a node's rack, cordons it, and holds and releases its rack", async ({ page }) => {
  await openConsole(page);
  await openNode(page);
  await page.getByTestId("node-location").click();
  const dialog = page.getByTestId("location-dialog");
  await dialog.getByTestId("location-rack").fill(RACK);
  await dialog.getByTestId("location-save").click();
  await expect(dialog).toBeHidden();

  await page.getByTestId("node-cordoned").click();
  await expect(page.getByTestId("node-detail-cordon")).toHaveText("cordoned");
  await page.getByTestId("nav-nodes").click();
  await expect(nodeRow(page)).toContainText(`/${RACK}/`);
  await expect(nodeRow(page).getByTestId("node-cordon")).toHaveText("cordoned");

  await page.getByTestId("nav-facility").click();
  await expect(page).toHaveURL(/\/facility$/);
  const row = page.locator(`[data-testid="facility-row"][data-domain="${DOMAIN}"]`);
  await expect(row).toContainText(nodeName);
  await row.getByTestId("facility-hold-open").click();
  const hold = page.getByTestId("hold-dialog");
  await expect(hold.getByTestId("hold-domain")).toHaveValue(DOMAIN);
  await expect(hold.getByTestId("hold-drain")).not.toBeChecked();
  await hold.getByTestId("hold-save").click();
  await expect(hold).toBeHidden();
  const admin = devFacts().adminUser;
  await expect(row.getByTestId("facility-hold")).toHaveText(`held by ${admin}`);
  await page.screenshot({ path: `${ARTIFACTS}/facility-en.png`, fullPage: true });

  await chooseLanguage(page, "tr");
  await expect(page.locator("h1")).toHaveText("Tesis");
  await expect(row.getByTestId("facility-hold")).toHaveText(`${admin} tutuyor`);
  await chooseLanguage(page, "en");

  await row.getByTestId("facility-release").click();
  await expect(row.getByTestId("facility-hold")).toHaveCount(0);
  await expect(row.getByTestId("facility-hold-open")).toBeVisible();
  expect((await adminApi().facility.list.query()).holds).toEqual([]);
});
