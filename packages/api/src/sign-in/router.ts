// Sign-in setup (Entra ID, Active Directory, SCIM) for admins, and the public list of methods the
// sign-in page offers.
import { z } from "zod";
import {
  entraSettingsInputSchema,
  ldapSettingsInputSchema,
  ldapTestReportSchema,
  signInMethodsSchema,
  signInSettingsSchema,
} from "./schemas";
import { adminProcedure, publicProcedure, router } from "../trpc";

export const signInRouter = router({
  methods: publicProcedure
    .output(signInMethodsSchema)
    .query(({ ctx }) => ctx.services.signIn.methods()),
  settings: adminProcedure
    .output(signInSettingsSchema)
    .query(({ ctx }) => ctx.services.signIn.settings()),
  setEntra: adminProcedure
    .input(entraSettingsInputSchema)
    .output(signInSettingsSchema)
    .mutation(({ ctx, input }) => ctx.services.signIn.setEntra(input, ctx.actor)),
  setLdap: adminProcedure
    .input(ldapSettingsInputSchema)
    .output(signInSettingsSchema)
    .mutation(({ ctx, input }) => ctx.services.signIn.setLdap(input, ctx.actor)),
  /** Tries the saved settings. */
  testLdap: adminProcedure
    .output(ldapTestReportSchema)
    .mutation(({ ctx }) => ctx.services.signIn.testLdap()),
  /**
   * Tries the settings written in the form, saved or not, and stores nothing; a blank bind
   * password uses the stored one.
   */
  testLdapForm: adminProcedure
    .input(ldapSettingsInputSchema)
    .output(ldapTestReportSchema)
    .mutation(({ ctx, input }) => ctx.services.signIn.testLdap(input)),
  /** A new SCIM bearer token, shown in this answer only; the old one stops working. */
  rotateScimToken: adminProcedure
    .output(z.object({ token: z.string() }))
    .mutation(({ ctx }) => ctx.services.signIn.rotateScimToken(ctx.actor)),
});
