// A node's own checks, run by its agent over its stream. Operators only: the checks run programs
// on the node and report its certificate.
import { doctorInputSchema, doctorViewSchema } from "./schemas";
import { operatorProcedure, router } from "../trpc";

export const doctorRouter = router({
  run: operatorProcedure
    .input(doctorInputSchema)
    .output(doctorViewSchema)
    .query(({ ctx, input }) => ctx.services.doctor.run(input.node)),
});
