import { NodesPage } from "@/components/nodes/nodes-page";

// Next requires pages as default exports.
export default function NodesRoute() {
  return <NodesPage />;
}
