import { GuardPage } from "@/components/guard/guard-page";

// Next requires pages as default exports.
export default function GuardRoute() {
  return <GuardPage />;
}
