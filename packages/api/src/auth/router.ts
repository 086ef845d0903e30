// Signing in and out, the person's own preferences, and tokens for `llmgw ctl login --token`.
import { z } from "zod";
import {
  createdTokenSchema,
  createTokenInputSchema,
  endedSessionsSchema,
  loginInputSchema,
  loginOutputSchema,
  setLocaleInputSchema,
  tokenViewSchema,
  userViewSchema,
} from "./schemas";
import { idInputSchema } from "../people/schemas";
import { answerOk, authedProcedure, publicProcedure, router } from "../trpc";

export const authRouter = router({
  login: publicProcedure
    .input(loginInputSchema)
    .output(loginOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.services.auth.login(
        input.username,
        input.password,
        ctx.clientAddress,
      );
      ctx.setSessionCookie(result.token, new Date(result.expiresAt));
      // A page's scripts never see the token: the browser keeps it in the HttpOnly cookie.
      return ctx.isBrowser ? { ...result, token: undefined } : result;
    }),

  logout: authedProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionToken) await ctx.services.auth.logout(ctx.sessionToken);
    ctx.clearSessionCookie();
    return { ok: true as const };
  }),

  /** Ends every session and token of the caller, this one included. */
  logoutEverywhere: authedProcedure.output(endedSessionsSchema).mutation(async ({ ctx }) => {
    const ended = await ctx.services.auth.logoutEverywhere(ctx.user.id);
    ctx.clearSessionCookie();
    return { ended };
  }),

  me: authedProcedure.output(userViewSchema).query(({ ctx }) => ctx.user),

  /** The console language, kept on the person so every browser opens in it. */
  setLocale: authedProcedure
    .input(setLocaleInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.auth.setLocale(ctx.user.id, input.locale))),

  createToken: authedProcedure
    .input(createTokenInputSchema)
    .output(createdTokenSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.createToken(ctx.user.id, input.label, input.expiresInDays),
    ),

  tokens: authedProcedure
    .output(z.array(tokenViewSchema))
    .query(({ ctx }) => ctx.services.auth.listTokens(ctx.user.id)),

  revokeToken: authedProcedure
    .input(idInputSchema)
    .mutation(({ ctx, input }) => answerOk(ctx.services.auth.revokeToken(ctx.user.id, input.id))),
});
