// The console has no landing page; the fleet is the first thing an operator wants to see.
import { redirect } from "next/navigation";

// Rendered per request so "/" answers with a real HTTP redirect; a prerendered redirect would be
// a 200 page that only moves on once its JavaScript has run.
export const dynamic = "force-dynamic";

// Next requires pages as default exports.
export default function HomePage(): never {
  redirect("/nodes");
}
