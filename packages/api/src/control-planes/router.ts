// Lists the control planes on the store; admins only (it names internal addresses).
import { adminProcedure, listQuery, router } from "../trpc";
import { controlPlaneViewSchema } from "./schemas";

export const controlPlanesRouter = router({
  list: listQuery(
    controlPlaneViewSchema,
    (services) => services.controlPlanes.list(),
    adminProcedure,
  ),
});
