import { ClusterPage } from "@/components/cluster/cluster-page";

// Next requires pages as default exports.
export default function ClusterRoute() {
  return <ClusterPage />;
}
