import { Suspense } from "react";
import { EventsPage } from "@/components/events/events-page";

// Next requires pages as default exports. Filters live in the URL (useSearchParams), which Next
// only allows inside a Suspense boundary when it prerenders the route.
export default function EventsRoute() {
  return (
    <Suspense>
      <EventsPage />
    </Suspense>
  );
}
