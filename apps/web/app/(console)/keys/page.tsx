import { KeysPage } from "@/components/keys/keys-page";

// Next requires pages as default exports.
export default function KeysRoute() {
  return <KeysPage />;
}
