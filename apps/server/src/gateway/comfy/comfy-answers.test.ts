import { describe, expect, it } from "vitest";
import { historyState, nodeErrorsSummary, queueStanding, queuedPromptId } from "./comfy-answers";

describe("reading ComfyUI's answers", () => {
  it("names each refused node with its class and error types, and nothing of ComfyUI's text", () => {
    const answer = {
      error: { type: "prompt_outputs_failed_validation", message: "Prompt outputs failed" },
      node_errors: {
        "4": {
          class_type: "CheckpointLoaderSimple",
          errors: [
            {
              type: "value_not_in_list",
              message: "Value not in list",
              details: "ckpt_name: 'x' not in ['secret-model.safetensors']",
            },
          ],
        },
      },
    };
    const summary = nodeErrorsSummary(answer);
    expect(summary).toBe("node 4 (CheckpointLoaderSimple): value_not_in_list");
    expect(summary).not.toContain("secret-model");
  });

  it("names the refusal of a whole graph by its type, and drops a type that is not a word", () => {
    expect(nodeErrorsSummary({ error: { type: "invalid_prompt" }, node_errors: {} })).toBe(
      "the workflow was refused: invalid_prompt",
    );
    expect(nodeErrorsSummary({ error: { type: "Traceback (most recent call)…" } })).toBeNull();
    const unknownClass = {
      error: {
        type: "invalid_prompt",
        message: "Cannot execute because node NoSuchNode does not exist.",
        details: "Node ID '#12'",
      },
      node_errors: {},
    };
    expect(nodeErrorsSummary(unknownClass)).toBe(
      "node 12 (NoSuchNode, unknown to this ComfyUI): invalid_prompt",
    );
  });

  it("reads a prompt id only when it is a plain id", () => {
    expect(queuedPromptId({ prompt_id: "a1-b2", number: 3, node_errors: {} })).toBe("a1-b2");
    expect(queuedPromptId({ prompt_id: "../../x?y" })).toBeNull();
    expect(queuedPromptId("nope")).toBeNull();
  });

  it("reads a history entry as waiting, done with saved pictures, or failed at a node", () => {
    expect(historyState({}, "p1")).toEqual({ state: "waiting" });
    const done = {
      p1: {
        status: { status_str: "success", completed: true, messages: [] },
        outputs: {
          "9": { images: [{ filename: "llmgw_00001_.png", subfolder: "", type: "output" }] },
          "10": { images: [{ filename: "preview.png", subfolder: "", type: "temp" }] },
        },
      },
    };
    expect(historyState(done, "p1")).toEqual({
      state: "done",
      images: [{ filename: "llmgw_00001_.png", subfolder: "", type: "output" }],
    });
    const failed = {
      p1: {
        status: {
          status_str: "error",
          completed: false,
          messages: [
            ["execution_start", {}],
            ["execution_error", { node_id: "6", node_type: "KSampler", exception_message: "OOM" }],
          ],
        },
        outputs: {},
      },
    };
    expect(historyState(failed, "p1")).toEqual({ state: "failed", where: "node 6 (KSampler)" });
  });

  it("finds which of ours the queue holds waiting and running", () => {
    const queue = {
      queue_running: [[5, "p1", {}, {}, []]],
      queue_pending: [
        [6, "p2", {}, {}, []],
        [7, "someone-else", {}, {}, []],
      ],
    };
    expect(queueStanding(queue, ["p1", "p2", "p3"])).toEqual({ pending: ["p2"], running: ["p1"] });
  });
});
