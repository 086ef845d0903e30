import { QuotasPage } from "@/components/quotas/quotas-page";

// Next requires pages as default exports.
export default function QuotasRoute() {
  return <QuotasPage />;
}
