// Typed tRPC hooks for the console. Only the AppRouter *type* crosses from @llmgw/api into the
// browser bundle; the router itself runs in the control plane.
import type { AppRouter } from "@llmgw/api";
import { createTRPCContext } from "@trpc/tanstack-react-query";

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
