// `llmgw comfyui-gate`: ComfyUI asks for no key, so a comfyui replica runs it behind this gate,
// loaded only by the CLI (a subpath of @llmgw/engines, so the adapters stay free of servers).
export { runComfyuiGate } from "./run-comfyui-gate";
export { COMFYUI_GATE_KEY_VARIABLE } from "./config";
