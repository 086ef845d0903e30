import { ExplorePage } from "@/components/explore/explore-page";

// Next requires pages as default exports.
export default function ExploreRoute() {
  return <ExplorePage />;
}
