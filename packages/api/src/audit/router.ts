// The audit log: who changed what. Admins only; secret fields were redacted before rows were written.
import { z } from "zod";
import { auditEntrySchema, auditQueryInputSchema } from "./schemas";
import { adminProcedure, router } from "../trpc";

export const auditRouter = router({
  list: adminProcedure
    .input(auditQueryInputSchema)
    .output(z.array(auditEntrySchema))
    .query(({ ctx, input }) => ctx.services.audit.list(input)),
});
