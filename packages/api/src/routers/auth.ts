import { TRPCError } from "@trpc/server";
import { loginInputSchema, loginOutputSchema, userViewSchema } from "../schemas";
import { authedProcedure, publicProcedure, router } from "../trpc";

export const authRouter = router({
  login: publicProcedure
    .input(loginInputSchema)
    .output(loginOutputSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await ctx.services.auth.login(input.username, input.password);
      if (!result) {
        throw new TRPCError({ code: "UNAUTHORIZED", message: "wrong username or password" });
      }
      ctx.setSessionCookie(result.token, new Date(result.expiresAt));
      return result;
    }),

  logout: authedProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionToken) await ctx.services.auth.logout(ctx.sessionToken);
    ctx.clearSessionCookie();
    return { ok: true as const };
  }),

  me: authedProcedure.output(userViewSchema).query(({ ctx }) => ctx.user),
});
