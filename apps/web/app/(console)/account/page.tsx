import { AccountPage } from "@/components/account/account-page";
import { readServerConfig } from "@/server-config";

// The control plane's address is read per request, so the login command shown is the real one.
export const dynamic = "force-dynamic";

// Next requires pages as default exports.
export default function AccountRoute() {
  return <AccountPage apiUrl={readServerConfig().apiUrl} />;
}
