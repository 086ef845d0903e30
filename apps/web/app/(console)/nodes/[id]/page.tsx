"use client";
import { useParams } from "next/navigation";
import { NodeDetail } from "@/components/nodes/node-detail";

// Next requires pages as default exports. The id comes from the URL on the client, because the
// whole console renders client-side (see components/providers.tsx).
export default function NodeRoute() {
  const params = useParams<{ id: string }>();
  return <NodeDetail id={decodeURIComponent(params.id)} />;
}
