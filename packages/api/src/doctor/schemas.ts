// A node's doctor report: its agent's own checks (driver, PCIe links, disk, clock, certificate,
// engine installs, memory read rate), each passing, warning or failing with what to do.
import { z } from "zod";
import { oneLine } from "../text";

export const DOCTOR_CHECK_STATUSES = ["pass", "warn", "fail"] as const;

export const doctorCheckSchema = z.object({
  id: z.string(),
  status: z.enum(DOCTOR_CHECK_STATUSES),
  summary: z.string(),
  fix: z.string(),
});

export const doctorViewSchema = z.object({
  node: z.string(),
  /** The worst status among the checks. */
  status: z.enum(DOCTOR_CHECK_STATUSES),
  checks: z.array(doctorCheckSchema),
});
export type DoctorView = z.infer<typeof doctorViewSchema>;

export const doctorInputSchema = z.object({
  node: oneLine("node").trim().min(1, "node is required").max(200),
});
