// From an image request to the graphs queued for it: one graph per picture, each with its own
// seed, so `n` works the same for a built-in and for any workflow file.
import {
  BUILTIN_CHECKPOINTS,
  BUILTIN_STEPS,
  builtinWorkflow,
  isBuiltinWorkflow,
} from "./builtin-workflows";
import type { ComfyuiSettings } from "./comfyui-settings";
import type { ImageRequest } from "./image-request";
import {
  fillWorkflow,
  parseWorkflowTemplate,
  type WorkflowCheck,
  type WorkflowGraph,
} from "./workflow-graph";

/** Steps a workflow file gets for `{{steps}}` when the model's comfyui block names none. */
const FILE_WORKFLOW_STEPS = 20;

export type ImageWorkflows = { ok: true; graphs: WorkflowGraph[] } | { ok: false; why: string };

/**
 * The graphs for a request. `fileText` is the workflow file's text when the settings name a file
 * (the caller reads it; this stays pure); it is ignored for a built-in.
 */
export function imageWorkflows(
  settings: ComfyuiSettings,
  fileText: string | null,
  request: ImageRequest,
): ImageWorkflows {
  const workflow = settings.workflow;
  let template: WorkflowCheck;
  if (isBuiltinWorkflow(workflow))
    template = {
      ok: true,
      graph: builtinWorkflow(workflow, settings.checkpoint ?? BUILTIN_CHECKPOINTS[workflow]),
    };
  else if (fileText === null) return { ok: false, why: `workflow file ${workflow} was not read` };
  else template = parseWorkflowTemplate(fileText);
  if (!template.ok) return { ok: false, why: template.why };
  const steps =
    settings.steps ?? (isBuiltinWorkflow(workflow) ? BUILTIN_STEPS[workflow] : FILE_WORKFLOW_STEPS);
  const graphs = Array.from({ length: request.count }, (_unused, index) =>
    fillWorkflow(template.graph, {
      prompt: request.prompt,
      width: request.widthPx,
      height: request.heightPx,
      seed: request.seed + index,
      steps,
    }),
  );
  return { ok: true, graphs };
}
