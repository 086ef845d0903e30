import type { ReactNode } from "react";
import { ConsoleShell } from "@/components/shell/console-shell";

// Next requires layouts as default exports. Every page in this group needs a signed-in session.
export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return <ConsoleShell>{children}</ConsoleShell>;
}
