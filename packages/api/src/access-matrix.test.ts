// The authorisation matrix: every procedure of the router, called as nobody, a viewer, an operator
// and an admin. The rule table below must name every procedure, so a new procedure without a rule
// fails here until someone decides who may call it.
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import type { Role } from "./auth/schemas";
import { appRouter } from "./root";
import { fakeContext } from "../test/fake-context";

/**
 * public: anyone; self: anyone signed in, acting on their own session or preferences only;
 * viewer: anyone signed in may look; operator: changes to the cluster; owner-operator: changes to
 * owned things (an operator somewhere, then the owner is checked); admin: identity, audit.
 */
type Rule = "public" | "self" | "viewer" | "operator" | "owner-operator" | "admin";

const RULES: Record<string, Rule> = {
  "auth.login": "public",
  "auth.logout": "self",
  "auth.logoutEverywhere": "self",
  "auth.me": "self",
  "auth.setLocale": "self",
  "auth.createToken": "self",
  "auth.tokens": "self",
  "auth.revokeToken": "self",
  "nodes.list": "viewer",
  "nodes.summary": "viewer",
  "nodes.page": "viewer",
  "nodes.cards": "viewer",
  "nodes.get": "viewer",
  "nodes.history": "viewer",
  "nodes.remove": "admin",
  "nodes.label": "admin",
  "nodes.cordon": "admin",
  "nodes.engineBuild": "admin",
  "facility.list": "viewer",
  "facility.hold": "admin",
  "facility.release": "admin",
  "models.list": "viewer",
  "models.get": "viewer",
  "models.add": "operator",
  "models.remove": "operator",
  "models.retry": "operator",
  "models.setFallbacks": "operator",
  "models.setKey": "operator",
  "models.setOwner": "operator",
  "models.explainPlacement": "viewer",
  "models.presets": "viewer",
  "models.setGpus": "admin",
  "models.setContext": "admin",
  "models.setResources": "admin",
  "replicas.list": "viewer",
  "replicas.cards": "viewer",
  "replicas.page": "viewer",
  "replicas.idle": "viewer",
  "replicas.benchAccess": "admin",
  "status.get": "viewer",
  "explore.run": "viewer",
  "logs.get": "viewer",
  "doctor.run": "operator",
  "fabric.test": "admin",
  "reclaim.run": "operator",
  "releases.list": "admin",
  "releases.remove": "admin",
  "controlPlanes.list": "admin",
  "quotas.list": "viewer",
  "quotas.set": "admin",
  "quotas.remove": "admin",
  "upgrade.plan": "admin",
  "upgrade.controlPlane": "admin",
  "upgrade.node": "admin",
  "keys.create": "owner-operator",
  "keys.list": "viewer",
  "keys.revoke": "owner-operator",
  "joinTokens.create": "admin",
  "joinTokens.list": "admin",
  "joinTokens.revoke": "admin",
  "joinTokens.joinInfo": "admin",
  "usage.query": "operator",
  "usage.series": "viewer",
  "usage.failed": "operator",
  "events.list": "viewer",
  "events.attention": "viewer",
  "events.acknowledge": "operator",
  "people.list": "viewer",
  "people.create": "admin",
  "people.update": "admin",
  "people.remove": "admin",
  "people.signOut": "admin",
  "groups.list": "viewer",
  "groups.create": "admin",
  "groups.remove": "admin",
  "groups.addMember": "admin",
  "groups.removeMember": "admin",
  "org.list": "viewer",
  "org.create": "admin",
  "org.remove": "admin",
  "roles.list": "viewer",
  "roles.grant": "admin",
  "roles.revoke": "admin",
  "audit.list": "admin",
  "signIn.methods": "public",
  "signIn.settings": "admin",
  "signIn.setEntra": "admin",
  "signIn.setLdap": "admin",
  "signIn.testLdap": "admin",
  "signIn.testLdapForm": "admin",
  "signIn.rotateScimToken": "admin",
  "federation.list": "admin",
  "federation.add": "admin",
  "federation.remove": "admin",
  "federation.sync": "admin",
  "mirrors.list": "viewer",
  "mirrors.remove": "operator",
  "mcp.servers.list": "admin",
  "mcp.servers.add": "admin",
  "mcp.servers.update": "admin",
  "mcp.servers.remove": "admin",
  "mcp.servers.test": "admin",
  "mcp.servers.enable": "admin",
  "mcp.servers.disable": "admin",
  "mcp.servers.replaceCredential": "admin",
  "mcp.grants.list": "admin",
  "mcp.grants.grant": "admin",
  "mcp.grants.revoke": "admin",
  "mcp.grants.open": "admin",
  "guard.policies.list": "admin",
  "guard.policies.add": "admin",
  "guard.policies.remove": "admin",
  "guard.judge.check": "admin",
};

const procedures = Object.entries(
  appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" } }>,
).map(([path, procedure]) => ({ path, type: procedure._def.type }));

const CALLERS: (Role | null)[] = [null, "viewer", "operator", "admin"];

function allowed(rule: Rule, role: Role | null): boolean {
  if (rule === "public") return true;
  if (role === null) return false;
  if (rule === "self" || rule === "viewer") return true;
  if (rule === "operator" || rule === "owner-operator") return role !== "viewer";
  return role === "admin";
}

/** Calls a procedure by its dotted path with no input; answers the tRPC code it failed with. */
async function call(path: string, role: Role | null): Promise<string> {
  let target: unknown = appRouter.createCaller(fakeContext(role));
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  try {
    await (target as (input?: unknown) => Promise<unknown>)(undefined);
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : `THREW ${String(error)}`;
  }
}

describe("authorisation matrix", () => {
  it("has a rule for every procedure, and no rule for a procedure that is gone", () => {
    const paths = procedures.map((p) => p.path).sort();
    expect(paths.filter((path) => !(path in RULES))).toEqual([]);
    expect(Object.keys(RULES).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it("lets no viewer (and nobody signed out) change anything but their own session", () => {
    // explore.run changes nothing: a mutation only so pasted config.json files travel in the body.
    const readOnly = new Set(["explore.run"]);
    const mutations = procedures.filter((p) => p.type === "mutation" && !readOnly.has(p.path));
    expect(mutations.length).toBeGreaterThan(20);
    for (const { path } of mutations) {
      const rule = RULES[path];
      if (rule === "public" || rule === "self") expect(path).toMatch(/^auth\./);
      else expect(["operator", "owner-operator", "admin"]).toContain(rule);
    }
  });

  for (const { path } of procedures) {
    it(`${path}: enforces its rule for each role`, async () => {
      const rule = RULES[path] ?? "admin";
      for (const role of CALLERS) {
        const code = await call(path, role);
        const refused = code === "UNAUTHORIZED" || code === "FORBIDDEN";
        expect({ role, refused, code }).toEqual({
          role,
          refused: !allowed(rule, role),
          code: allowed(rule, role)
            ? expect.not.stringMatching(/UNAUTHORIZED|FORBIDDEN|THREW/)
            : role === null
              ? "UNAUTHORIZED"
              : "FORBIDDEN",
        });
      }
    });
  }
});

describe("owned keys", () => {
  const input = { owner: "user:bob", models: ["*"] };

  it("lets an operator make and revoke their own keys, never another person's", async () => {
    const own = appRouter.createCaller(fakeContext("operator"));
    await expect(own.keys.create({ ...input, owner: "user:operator-user" })).resolves.toMatchObject(
      { key: "llmgw_fake" },
    );
    await expect(own.keys.create(input)).rejects.toThrow(/is not an operator of user:bob/);
  });

  it("lets an operator of a team manage the team's keys and its projects', not others'", async () => {
    const ctx = fakeContext("viewer", undefined, [{ role: "operator", scope: "org:acme" }]);
    const caller = appRouter.createCaller(ctx);
    await expect(caller.keys.create({ ...input, owner: "team:ml" })).resolves.toBeTruthy();
    await expect(caller.keys.create({ ...input, owner: "team:other" })).rejects.toThrow(
      /not an operator of team:other/,
    );
    // The fake key belongs to team:ml, under org:acme.
    await expect(caller.keys.revoke({ id: "k1" })).resolves.toMatchObject({ state: "revoked" });
    const bare = appRouter.createCaller(fakeContext("operator"));
    await expect(bare.keys.revoke({ id: "k1" })).rejects.toThrow(/not an operator of team:ml/);
  });

  it("shows a person only the keys of owners they hold a role on", async () => {
    expect(await appRouter.createCaller(fakeContext("operator")).keys.list()).toEqual([]);
    const granted = fakeContext("viewer", undefined, [{ role: "viewer", scope: "team:ml" }]);
    expect(await appRouter.createCaller(granted).keys.list()).toHaveLength(1);
    expect(await appRouter.createCaller(fakeContext("admin")).keys.list()).toHaveLength(1);
  });
});
