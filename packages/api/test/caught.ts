// Router tests look at how a call failed: the tRPC code and the sentence a client would see.
import { TRPCError } from "@trpc/server";
import { expect } from "vitest";

/** The TRPCError `work` rejected with; fails the test when it resolved or threw something else. */
export async function caught(work: Promise<unknown>): Promise<TRPCError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}
