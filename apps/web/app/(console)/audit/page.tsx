import { AuditPage } from "@/components/identity/audit-page";

// Next requires pages as default exports.
export default function AuditRoute() {
  return <AuditPage />;
}
