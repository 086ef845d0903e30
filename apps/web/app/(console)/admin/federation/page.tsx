import { FederationPage } from "@/components/federation/federation-page";

// Next requires pages as default exports.
export default function FederationRoute() {
  return <FederationPage />;
}
