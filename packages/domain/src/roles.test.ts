import { describe, expect, it } from "vitest";
import { clusterRole, holdsOn } from "./roles";

describe("clusterRole", () => {
  it("takes the highest of the direct role and cluster grants", () => {
    expect(clusterRole("viewer", [{ role: "operator", scope: "*" }])).toBe("operator");
    expect(clusterRole("admin", [{ role: "viewer", scope: "*" }])).toBe("admin");
  });

  it("makes a person with only a team grant a cluster viewer, and nobody without any", () => {
    expect(clusterRole(null, [{ role: "admin", scope: "team:ml" }])).toBe("viewer");
    expect(clusterRole(null, [])).toBeNull();
  });
});

describe("holdsOn", () => {
  const ada = (role: "viewer" | "operator" | "admin" | null, grants = [] as never[]) => ({
    username: "ada",
    role,
    grants,
  });

  it("lets an operator manage their own things but not another person's", () => {
    expect(holdsOn(ada("operator"), "operator", ["team:ml", "user:ada"])).toBe(true);
    expect(holdsOn(ada("operator"), "operator", ["team:ml", "user:bob"])).toBe(false);
    expect(holdsOn(ada("viewer"), "operator", ["user:ada"])).toBe(false);
  });

  it("follows a grant down the tree, not up", () => {
    const grants = [{ role: "operator" as const, scope: "team:ml" }];
    const person = { username: "ada", role: "viewer" as const, grants };
    expect(holdsOn(person, "operator", ["org:acme", "team:ml", "project:search"])).toBe(true);
    expect(holdsOn(person, "operator", ["org:acme"])).toBe(false);
    expect(holdsOn(person, "admin", ["org:acme", "team:ml"])).toBe(false);
    expect(holdsOn(person, "operator", ["org:acme", "team:ml", "user:bob"])).toBe(false);
  });

  it("lets a cluster admin hold everything", () => {
    expect(holdsOn(ada("admin"), "admin", ["org:x", "user:bob"])).toBe(true);
  });
});
