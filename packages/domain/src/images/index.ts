// Pictures through ComfyUI: workflows, their filling and the OpenAI request they are filled from.
export {
  checkApiGraph,
  fillWorkflow,
  parseWorkflowTemplate,
  WORKFLOW_PLACEHOLDERS,
  type WorkflowCheck,
  type WorkflowGraph,
  type WorkflowNode,
  type WorkflowValues,
} from "./workflow-graph";
export {
  BUILTIN_CHECKPOINTS,
  BUILTIN_STEPS,
  BUILTIN_WORKFLOWS,
  builtinWorkflow,
  isBuiltinWorkflow,
  type BuiltinWorkflow,
} from "./builtin-workflows";
export {
  IMAGES_PER_REQUEST_MAX,
  parseImageRequest,
  parseImageSize,
  type ImageRequest,
  type ImageRequestCheck,
} from "./image-request";
export { comfyuiSettingsSchema, type ComfyuiSettings } from "./comfyui-settings";
export { imageWorkflows, type ImageWorkflows } from "./image-workflows";
