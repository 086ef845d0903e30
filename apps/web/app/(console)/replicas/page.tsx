import { Suspense } from "react";
import { ReplicasPage } from "@/components/replicas/replicas-page";

// Next requires pages as default exports. The page reads ?model= with useSearchParams, which Next
// only allows inside a Suspense boundary when it prerenders the route.
export default function ReplicasRoute() {
  return (
    <Suspense>
      <ReplicasPage />
    </Suspense>
  );
}
