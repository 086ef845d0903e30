// Identity in a real browser: an admin sets up Entra ID on People → Sign-in, a person signs in with
// "Sign in with Microsoft" through a real local OpenID provider (Entra-shaped tokens) and gets the
// role their group carries; a refused token comes back to the sign-in page with the reason. An admin
// manages people, groups, grants and the org tree on People (in English and in Turkish) and the
// grants take effect over the API; a viewer sees no edit controls. The People, Sign-in and Audit
// pages are captured in English and Turkish in e2e/artifacts/.
import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { startEntraProvider, type EntraProvider } from "@llmgw/testing";
import { ARTIFACTS, devFacts } from "./facts";
import { adminApi, apiAs, httpStatusOf, loginToken, seed } from "./factories";
import { chooseLanguage, forgetSession, openConsole, SIGNED_OUT } from "./session";

const GROUP_ID = randomUUID();
let provider: EntraProvider;

test.beforeAll(async () => {
  provider = await startEntraProvider();
  await seed.group({ name: "entra-ml-operators", externalId: GROUP_ID });
  await seed.roleGrant({ group: "entra-ml-operators", role: "operator" });
});

test.afterAll(async () => {
  await provider?.stop();
});

test("an admin sets up Entra ID on People → Sign-in; the secret is never shown again", async ({
  page,
}) => {
  await openConsole(page);
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
  await forgetSession(page);
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
  await forgetSession(page);
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
  await openConsole(page);
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

/** Answers the confirm dialog `testId` with its OK button. */
async function confirm(page: Page, testId: string) {
  await page.getByTestId(testId).getByTestId(`${testId}-ok`).click();
  await expect(page.getByTestId(testId)).toHaveCount(0);
}

async function addUnit(page: Page, kind: "org" | "team" | "project", name: string, parent = "") {
  await page.getByTestId("unit-kind").selectOption(kind);
  if (parent) await page.getByTestId("unit-parent").selectOption(parent);
  await page.getByTestId("unit-name").fill(name);
  await page.getByTestId("unit-create-submit").click();
  await expect(
    page.locator(`[data-testid="org-unit"][data-owner="${kind}:${name}"]`),
  ).toBeVisible();
}

/**
 * The whole identity round on People, as an admin, in the page's current language: a person (the
 * password shown once signs them in), a group with the person in it, org → team → project, the group
 * granted operator on the project (which lets the person make a key there over the API), then all
 * of it revoked and removed again. Refusals (a duplicate group, a unit that still holds a team)
 * show the control plane's words, in the page's language. Names end in `tag` so the English and Turkish rounds do not meet.
 */
async function identityRound(page: Page, tag: "en" | "tr") {
  const person = `rita-${tag}`;
  const group = `ml-ops-${tag}`;
  const [org, team, project] = [`acme-${tag}`, `ml-${tag}`, `search-${tag}`];
  const personRow = page.locator(`[data-testid="person-row"][data-username="${person}"]`);
  const groupRow = page.locator(`[data-testid="group-row"][data-group="${group}"]`);

  // A person: the initial password is made by the console and shown once, with a copy button.
  await page.getByTestId("add-person").click();
  await page.getByTestId("person-username").fill(person);
  await page.getByTestId("person-display-name").fill("Rita Levi");
  await page.getByTestId("person-email").fill(`${person}@example.com`);
  await page.getByTestId("add-person-submit").click();
  const value = page.getByTestId("created-password-value");
  await expect(value).toHaveText(/^[A-Za-z0-9_-]{20}$/);
  const password = await value.textContent();
  if (password === null) throw new Error("the created password has no text");
  await page.getByTestId("created-password-copy").click();
  await expect(page.getByTestId("created-password-copied")).toBeVisible();
  await page.screenshot({ path: `${ARTIFACTS}/people-add-person-${tag}.png` });
  await page.getByTestId("created-password-done").click();
  await expect(page.getByTestId("add-person-dialog")).toHaveCount(0);
  await expect(personRow).toContainText(`${person}@example.com`);
  const token = await loginToken(person, password);
  expect(token, "the password shown once signs the person in").not.toBeNull();
  const personApi = apiAs(token ?? "");

  // A group, then the same name again: the control plane's refusal is shown, not swallowed.
  await page.getByTestId("group-name").fill(group);
  await page.getByTestId("group-create-submit").click();
  await expect(groupRow).toBeVisible();
  await page.getByTestId("group-name").fill(group);
  await page.getByTestId("group-create-submit").click();
  await expect(page.getByTestId("groups-error")).toContainText(
    tag === "tr" ? `“${group}” adlı bir grup zaten var` : `a group named "${group}" exists already`,
  );
  await groupRow.getByTestId("group-member-pick").selectOption(person);
  await groupRow.getByTestId("group-member-add").click();
  await expect(
    groupRow.locator(`[data-testid="group-member"][data-username="${person}"]`),
  ).toBeVisible();
  await expect(page.getByTestId("groups-error")).toHaveCount(0);
  await expect(personRow).toContainText(group);

  // org → team → project, then the group is granted operator on the project.
  await addUnit(page, "org", org);
  await addUnit(page, "team", team, `org:${org}`);
  await addUnit(page, "project", project, `team:${team}`);
  await expect(
    page
      .locator(`[data-testid="org-unit"][data-owner="org:${org}"]`)
      .locator(`[data-testid="org-unit"][data-owner="team:${team}"]`)
      .locator(`[data-testid="org-unit"][data-owner="project:${project}"]`),
  ).toBeVisible();
  await page.getByTestId("grant-subject").selectOption(`group:${group}`);
  await page.getByTestId("grant-role").selectOption("operator");
  await page.getByTestId("grant-scope").selectOption(`project:${project}`);
  await page.getByTestId("grant-submit").click();
  const grantRow = page.locator(
    `[data-testid="grant-row"][data-subject="group:${group}"][data-role="operator"][data-scope="project:${project}"]`,
  );
  await expect(grantRow).toBeVisible();
  await expect(groupRow.getByTestId("group-roles")).toContainText(`project:${project}`);
  await expect(personRow.getByTestId("person-grants")).toContainText(`project:${project}`);
  await page.screenshot({ path: `${ARTIFACTS}/people-edit-${tag}.png`, fullPage: true });

  // The grant holds over the API: the person sees it and may make a key for the project.
  const me = await personApi.auth.me.query();
  expect(me.grants).toContainEqual({
    role: "operator",
    scope: `project:${project}`,
  });
  const key = { owner: `project:${project}`, models: ["*"] };
  expect(await httpStatusOf(personApi.keys.create.mutate(key))).toBe(200);

  // Revoked, it stops holding at once.
  await grantRow.getByTestId("grant-revoke").click();
  await confirm(page, "grant-revoke-confirm");
  await expect(grantRow).toHaveCount(0);
  expect(await httpStatusOf(personApi.keys.create.mutate(key))).toBe(403);

  // A unit that still holds another is refused, with the control plane's reason.
  // Its own remove button comes first; its team's and project's follow inside it.
  const orgUnit = page.locator(`[data-testid="org-unit"][data-owner="org:${org}"]`);
  await orgUnit.getByTestId("org-unit-remove").first().click();
  await confirm(page, "org-unit-remove-confirm");
  await expect(page.getByTestId("org-error")).toContainText(
    tag === "tr"
      ? `org:${org} hâlâ şunları içeriyor: team:${team}`
      : `org:${org} still holds team:${team}`,
  );
  for (const owner of [`project:${project}`, `team:${team}`, `org:${org}`]) {
    const unit = page.locator(`[data-testid="org-unit"][data-owner="${owner}"]`);
    await unit.getByTestId("org-unit-remove").first().click();
    await confirm(page, "org-unit-remove-confirm");
    await expect(unit).toHaveCount(0);
  }
  await expect(page.getByTestId("org-error")).toHaveCount(0);

  // Out of the group, signed out everywhere (the API token stops working), group and person gone.
  await groupRow.getByTestId("group-member-remove").click();
  await expect(groupRow.getByTestId("group-member")).toHaveCount(0);
  await personRow.getByTestId("person-sign-out").click();
  await expect(page.getByTestId("person-signed-out")).toContainText(person);
  expect(await httpStatusOf(personApi.auth.me.query())).toBe(401);
  await groupRow.getByTestId("group-remove").click();
  await confirm(page, "group-remove-confirm");
  await expect(groupRow).toHaveCount(0);
  await personRow.getByTestId("person-remove").click();
  await confirm(page, "person-remove-confirm");
  await expect(personRow).toHaveCount(0);
  expect(await loginToken(person, password)).toBeNull();
}

/**
 * Makes a person and a group with them in it the way a SCIM client (Entra provisioning) does.
 * SCIM reaches only what SCIM made, so the member is provisioned first.
 */
async function scimGroup(name: string, member: string): Promise<void> {
  const { token } = await adminApi().signIn.rotateScimToken.mutate();
  const scim = (path: string, body: unknown) =>
    fetch(`${devFacts().apiUrl}/scim/v2/${path}`, {
      method: "POST",
      headers: { "content-type": "application/scim+json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const user = await scim("Users", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
    userName: member,
    active: true,
  });
  expect(user.status, await user.clone().text()).toBe(201);
  const { id } = (await user.json()) as { id: string };
  const group = await scim("Groups", {
    schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    displayName: name,
    members: [{ value: id }],
  });
  expect(group.status, await group.clone().text()).toBe(201);
}

test("an admin manages people, groups, grants and the org tree on People", async ({ page }) => {
  await scimGroup("scim-researchers", "sam@contoso.example");
  await openConsole(page);
  await page.getByTestId("nav-people").click();
  // A group SCIM fills is the directory's: marked so, no member or remove controls.
  const scimRow = page.locator('[data-testid="group-row"][data-group="scim-researchers"]');
  await expect(scimRow.getByTestId("group-managed")).toBeVisible();
  await expect(scimRow.getByTestId("group-member")).toContainText("sam@contoso.example");
  for (const control of ["group-member-pick", "group-member-remove", "group-remove"])
    await expect(scimRow.getByTestId(control), control).toHaveCount(0);
  await identityRound(page, "en");
  // The last active admin cannot be removed; the refusal says so.
  const admin = page.locator(`[data-testid="person-row"][data-username="${devFacts().adminUser}"]`);
  await admin.getByTestId("person-remove").click();
  await confirm(page, "person-remove-confirm");
  await expect(page.getByTestId("people-error")).toContainText("is the last active admin");
  await expect(admin).toBeVisible();
});

test("the same round in Turkish", async ({ page }) => {
  await openConsole(page);
  await page.getByTestId("nav-people").click();
  await chooseLanguage(page, "tr");
  try {
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Kişiler");
    await expect(page.getByTestId("add-person")).toHaveText("Kişi ekle");
    await expect(page.getByRole("heading", { level: 2, name: "Rol yetkileri" })).toBeVisible();
    await identityRound(page, "tr");
  } finally {
    await chooseLanguage(page, "en");
  }
});

test("a viewer sees people, groups, grants and the org tree without edit controls", async ({
  browser,
}) => {
  await seed.person({ username: "vic", password: "viewer-pass-1", role: "viewer" });
  await seed.orgUnit({ kind: "org", name: "viewer-check" });
  const context = await browser.newContext({ storageState: SIGNED_OUT });
  const page = await context.newPage();
  try {
    await page.goto(`${devFacts().consoleUrl}/sign-in`);
    await page.getByTestId("signin-username").fill("vic");
    await page.getByTestId("signin-password").fill("viewer-pass-1");
    await page.getByTestId("signin-submit").click();
    await expect(page).toHaveURL(/\/cluster$/);
    await page.getByTestId("nav-people").click();
    await expect(page.getByTestId("people-read-only")).toBeVisible();
    await expect(page.getByTestId("groups-table")).toContainText("entra-ml-operators");
    await expect(page.getByTestId("grants-table")).toContainText("entra-ml-operators");
    await expect(
      page.locator('[data-testid="org-unit"][data-owner="org:viewer-check"]'),
    ).toBeVisible();
    for (const control of [
      "add-person",
      "person-toggle-active",
      "person-sign-out",
      "person-remove",
      "group-create-form",
      "group-member-pick",
      "group-member-remove",
      "group-remove",
      "grant-form",
      "grant-revoke",
      "unit-create-form",
      "org-unit-remove",
    ])
      await expect(page.getByTestId(control), control).toHaveCount(0);
    await expect(page.getByTestId("people-table").locator("select")).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/people-viewer-en.png`, fullPage: true });
  } finally {
    await context.close();
  }
});
