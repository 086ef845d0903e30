import { UsagePage } from "@/components/usage/usage-page";

// Next requires pages as default exports.
export default function UsageRoute() {
  return <UsagePage />;
}
