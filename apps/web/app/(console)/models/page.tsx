import { ModelsPage } from "@/components/models/models-page";

// Next requires pages as default exports.
export default function ModelsRoute() {
  return <ModelsPage />;
}
