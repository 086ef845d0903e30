import { HeatmapBench } from "@/components/bench/heatmap-bench";

// Next requires pages as default exports. Synthetic data only: no sign-in, no API calls.
export default function HeatmapBenchRoute() {
  return <HeatmapBench />;
}
