"use client";
import { useParams } from "next/navigation";
import { Suspense } from "react";
import { LogsPage } from "@/components/logs/logs-page";

// Next requires pages as default exports. The chosen source lives in the URL (?source=), so a
// link from an event or a replica can open one engine's log directly.
export default function NodeLogsRoute() {
  const params = useParams<{ id: string }>();
  return (
    <Suspense>
      <LogsPage nodeId={decodeURIComponent(params.id)} />
    </Suspense>
  );
}
