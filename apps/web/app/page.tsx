// The console has no landing page; the fleet is the first thing an operator wants to see.
import { redirect } from "next/navigation";

// Next requires pages as default exports.
export default function HomePage(): never {
  redirect("/nodes");
}
