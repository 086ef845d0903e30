import { describe, expect, it } from "vitest";
import { fillWorkflow, parseWorkflowTemplate, type WorkflowGraph } from "./workflow-graph";

const TEMPLATE = `{
  "3": {"class_type": "KSampler", "inputs": {"seed": {{seed}}, "steps": {{ steps }}, "model": ["4", 0]}},
  "5": {"class_type": "EmptyLatentImage", "inputs": {"width": {{width}}, "height": {{height}}, "batch_size": 1}},
  "6": {"class_type": "CLIPTextEncode", "inputs": {"text": "{{prompt}}", "clip": ["4", 1]}},
  "7": {"class_type": "CLIPTextEncode", "inputs": {"text": "a photo of {{prompt}}, {{width}}px", "clip": ["4", 1]}},
  "9": {"class_type": "SaveImage", "inputs": {"images": ["8", 0], "filename_prefix": "x"}}
}`;

const VALUES = { prompt: "a cat", width: 512, height: 768, seed: 42, steps: 9 };

function template(text: string): WorkflowGraph {
  const parsed = parseWorkflowTemplate(text);
  if (!parsed.ok) throw new Error(parsed.why);
  return parsed.graph;
}

describe("workflow templates", () => {
  it("fills numbers as numbers and text inside strings", () => {
    const graph = fillWorkflow(template(TEMPLATE), VALUES);
    expect(graph["3"]?.inputs).toMatchObject({ seed: 42, steps: 9, model: ["4", 0] });
    expect(graph["5"]?.inputs).toMatchObject({ width: 512, height: 768 });
    expect(graph["6"]?.inputs.text).toBe("a cat");
    expect(graph["7"]?.inputs.text).toBe("a photo of a cat, 512px");
  });

  it("keeps an attacker's prompt one string: no node added, no input changed", () => {
    const attack =
      'x"}}, "99": {"class_type": "SaveImage", "inputs": {"filename_prefix": "../../etc"}}, "z": {"a": "\n\\"{{seed}}';
    const graph = fillWorkflow(template(TEMPLATE), { ...VALUES, prompt: attack });
    expect(Object.keys(graph).sort()).toEqual(["3", "5", "6", "7", "9"]);
    expect(graph["6"]?.inputs.text).toBe(attack);
    expect(graph["7"]?.inputs.text).toBe(`a photo of ${attack}, 512px`);
    expect(graph["9"]?.inputs.filename_prefix).toBe("x");
    // The graph survives the trip to ComfyUI as JSON unchanged.
    expect(JSON.parse(JSON.stringify(graph))).toEqual(graph);
  });

  it("leaves the template untouched for the next request", () => {
    const shared = template(TEMPLATE);
    fillWorkflow(shared, VALUES);
    expect(shared["6"]?.inputs.text).toBe("{{prompt}}");
  });

  it("refuses an unknown placeholder by name", () => {
    const parsed = parseWorkflowTemplate(TEMPLATE.replace("{{ steps }}", "{{cfg}}"));
    expect(parsed).toEqual({ ok: false, why: expect.stringContaining("{{cfg}}") as string });
  });

  it("refuses ComfyUI's UI format and says how to export the API format", () => {
    const parsed = parseWorkflowTemplate('{"nodes": [], "links": [], "version": 0.4}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.why).toContain("UI format");
  });

  it("refuses a node without class_type, naming it", () => {
    const parsed = parseWorkflowTemplate('{"1": {"inputs": {}}}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.why).toContain('node "1"');
  });

  it("refuses a graph with no SaveImage", () => {
    const parsed = parseWorkflowTemplate('{"1": {"class_type": "VAEDecode", "inputs": {}}}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.why).toContain("SaveImage");
  });

  it("refuses text that is not JSON, an array and an empty graph", () => {
    for (const text of ['{"1": ', "[]", "{}"]) expect(parseWorkflowTemplate(text).ok).toBe(false);
  });
});
