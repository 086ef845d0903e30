// /metrics in vLLM's names and shapes (gauges labelled by model_name), so everything that scrapes a
// real vLLM reads the simulator unchanged.
import { VLLM_METRIC_NAMES } from "@llmgw/engines";
import type { EngineLoad } from "./load";

const [RUNNING] = VLLM_METRIC_NAMES.runningRequests;
const [WAITING] = VLLM_METRIC_NAMES.waitingRequests;
const [KV_USAGE, KV_USAGE_LEGACY] = VLLM_METRIC_NAMES.kvCacheUsageRatio;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function family(
  name: string | undefined,
  type: "gauge" | "counter",
  help: string,
  lines: string[],
): string[] {
  return name === undefined ? [] : [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...lines];
}

/** `extraWaiting`: added to the waiting gauge (set through PUT /sim/control in tests). */
export function renderMetrics(model: string, load: EngineLoad, extraWaiting = 0): string {
  const labels = `engine="0",model_name="${escapeLabel(model)}"`;
  const gauge = (name: string | undefined, help: string, value: number): string[] =>
    family(name, "gauge", help, [`${name}{${labels}} ${value}`]);
  const finished = [...load.finished].map(
    ([reason, n]) => `vllm:request_success_total{${labels},finished_reason="${reason}"} ${n}`,
  );
  return [
    ...gauge(RUNNING, "Number of requests in model execution batches.", load.running),
    ...gauge(WAITING, "Number of requests waiting to be processed.", load.waiting + extraWaiting),
    ...gauge(KV_USAGE, "KV-cache usage. 1 means 100 percent usage.", load.kvCacheUsageRatio),
    // Older vLLM's name for the same gauge, for scrapers written against it.
    ...gauge(
      KV_USAGE_LEGACY,
      "GPU KV-cache usage. 1 means 100 percent usage.",
      load.kvCacheUsageRatio,
    ),
    ...family("vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.", [
      `vllm:prompt_tokens_total{${labels}} ${load.promptTokensTotal}`,
    ]),
    ...family("vllm:generation_tokens_total", "counter", "Number of generation tokens processed.", [
      `vllm:generation_tokens_total{${labels}} ${load.generationTokensTotal}`,
    ]),
    ...family(
      "vllm:request_success_total",
      "counter",
      "Count of successfully processed requests.",
      finished,
    ),
    "",
  ].join("\n");
}
