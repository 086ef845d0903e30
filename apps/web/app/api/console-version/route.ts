// GET /api/console-version: the build of the console now running. An open console polls it and,
// when it differs from the build that served its page, offers a reload instead of breaking on
// scripts the upgraded console no longer has.
import { consoleBuild } from "@/server-config";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ build: consoleBuild() }, { headers: { "cache-control": "no-store" } });
}
