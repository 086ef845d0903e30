import { FacilityPage } from "@/components/facility/facility-page";

// Next requires pages as default exports.
export default function FacilityRoute() {
  return <FacilityPage />;
}
