// What a finished prompt leaves behind: for each SaveImage (or PreviewImage) node, the pictures its
// upstream graph describes — size and count from the empty latent, content from the prompt text and
// seed — named the way ComfyUI names its files (`<prefix>_00001_.png`, a prefix's folder as subfolder).
import { renderPicture } from "../images";
import { LATENT_CLASSES, SEED_INPUT } from "./node-classes";
import { upstreamOf, type Graph } from "./validate";

export interface ImageRef {
  filename: string;
  subfolder: string;
  type: "output" | "temp";
}
export interface Picture extends ImageRef {
  png: Buffer;
}

/** The simulator draws in memory; a picture above this many pixels fails as an out-of-memory would. */
const PIXELS_MAX = 4096 * 4096;

/** A failure while a prompt runs, reported in its history as ComfyUI's `execution_error`. */
export class ExecutionError extends Error {
  override readonly name = "ExecutionError";
}

interface Scene {
  text: string;
  seed: number;
  width: number;
  height: number;
  count: number;
}

function sceneOf(graph: Graph, outputId: string): Scene {
  const scene: Scene = { text: "", seed: 0, width: 512, height: 512, count: 1 };
  let hasText = false;
  let hasSeed = false;
  let hasLatent = false;
  for (const id of upstreamOf(graph, outputId)) {
    const node = graph[id];
    if (node === undefined) continue;
    const { class_type: type, inputs } = node;
    if (
      type === "CLIPTextEncode" &&
      !hasText &&
      typeof inputs["text"] === "string" &&
      inputs["text"].trim() !== ""
    ) {
      scene.text = inputs["text"];
      hasText = true;
    }
    const seedName = SEED_INPUT[type];
    if (seedName !== undefined && !hasSeed && typeof inputs[seedName] === "number") {
      scene.seed = inputs[seedName];
      hasSeed = true;
    }
    if (LATENT_CLASSES.has(type) && !hasLatent) {
      scene.width = Number(inputs["width"]);
      scene.height = Number(inputs["height"]);
      scene.count = Number(inputs["batch_size"]);
      hasLatent = true;
    }
  }
  return scene;
}

/** Draws the pictures of one output node; `nextCounter` numbers files per folder and prefix. */
export function drawOutput(
  graph: Graph,
  outputId: string,
  nextCounter: (key: string) => number,
): Picture[] {
  const node = graph[outputId];
  const scene = sceneOf(graph, outputId);
  if (scene.width * scene.height > PIXELS_MAX)
    throw new ExecutionError(
      `the simulator draws at most ${PIXELS_MAX} pixels a picture; ${scene.width}x${scene.height} is more`,
    );
  const isPreview = node?.class_type === "PreviewImage";
  const asked = node?.inputs["filename_prefix"];
  const prefix = isPreview ? "ComfyUI_temp" : typeof asked === "string" ? asked : "ComfyUI";
  const slash = prefix.lastIndexOf("/");
  const subfolder = slash < 0 ? "" : prefix.slice(0, slash);
  const stem = slash < 0 ? prefix : prefix.slice(slash + 1);
  if (subfolder.split("/").includes("..") || subfolder.startsWith("/"))
    throw new ExecutionError("Saving image outside the output folder is not allowed.");
  return Array.from({ length: scene.count }, (_, index) => {
    const counter = nextCounter(`${subfolder}/${stem}`);
    return {
      filename: `${stem}_${String(counter).padStart(5, "0")}_.png`,
      subfolder,
      type: isPreview ? "temp" : "output",
      png: renderPicture(`${scene.seed}\0${scene.text}`, index, scene.width, scene.height),
    };
  });
}
