// Who is signed in, with which role and grants, how a session opens, and the tokens for the CLI.
import { z } from "zod";
import { oneLine } from "../text";

export const roleSchema = z.enum(["admin", "operator", "viewer"]);
export type Role = z.infer<typeof roleSchema>;

export const grantSchema = z.object({ role: roleSchema, scope: z.string() });
export type Grant = z.infer<typeof grantSchema>;

export const LOCALES = ["en", "tr"] as const;
export const localeSchema = z.enum(LOCALES, { message: "locale must be en or tr" });

/** The signed-in person: their cluster role and the grants they hold on orgs, teams, projects. */
export const userViewSchema = z.object({
  id: z.string(),
  username: z.string(),
  role: roleSchema,
  displayName: z.string().default(""),
  source: z.enum(["local", "entra", "ldap", "scim"]).default("local"),
  locale: localeSchema.nullable().default(null),
  grants: z.array(grantSchema).default([]),
});
export type UserView = z.infer<typeof userViewSchema>;

export const loginInputSchema = z.object({
  username: oneLine("username").trim().min(1, "username is required").max(200),
  password: oneLine("password").min(1, "password is required").max(1000),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const loginOutputSchema = z.object({
  /**
   * Session token, for clients without a browser (the CLI, scripts) to send as a bearer token. A
   * browser gets it only as the HttpOnly cookie, so it is absent here.
   */
  token: z.string().optional(),
  expiresAt: z.string(),
  user: userViewSchema,
});
/** A session as the server opens it: the token is always there before the router decides. */
export type LoginOutput = z.infer<typeof loginOutputSchema> & { token: string };

/** How many sessions and tokens a sign-out everywhere ended. */
export const endedSessionsSchema = z.object({ ended: z.number() });

export const setLocaleInputSchema = z.object({ locale: localeSchema });

export const tokenViewSchema = z.object({
  id: z.string(),
  label: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type TokenView = z.infer<typeof tokenViewSchema>;

export const createTokenInputSchema = z.object({
  label: oneLine("label").trim().min(1, "a token needs a name").max(100),
  expiresInDays: z.number().int().min(1, "at least 1 day").max(365, "at most 365 days").default(90),
});

export const createdTokenSchema = z.object({
  /** Shown in this answer only; the store keeps its SHA-256. */
  token: z.string(),
  view: tokenViewSchema,
});
export type CreatedToken = z.infer<typeof createdTokenSchema>;
