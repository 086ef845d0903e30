// The heatmap's colour scales. A value becomes a bucket 0..254 on a 255-step ramp (255 means "no
// reading"), so the renderer compares one byte per cell to know what changed, and paints each
// bucket with one precomputed fill style.

import { must } from "@llmgw/domain";

export const METRICS = ["utilization", "memory", "temperature"] as const;
export type HeatmapMetric = (typeof METRICS)[number];

const BUCKETS = 255;
export const NO_READING = 255;

export interface MetricScale {
  min: number;
  max: number;
  /** Unit the legend prints its ticks in. */
  unit: "percent" | "celsius";
}

/** Memory is a share of the card's own memory, so cards of different sizes compare fairly. */
export const SCALES: Record<HeatmapMetric, MetricScale> = {
  utilization: { min: 0, max: 100, unit: "percent" },
  memory: { min: 0, max: 100, unit: "percent" },
  temperature: { min: 25, max: 90, unit: "celsius" },
};

/** Cool to hot: dark blue, teal, green, yellow, orange, red (readable on both themes). */
const RAMP: readonly (readonly [number, number, number])[] = [
  [30, 58, 138],
  [8, 145, 178],
  [22, 163, 74],
  [234, 179, 8],
  [234, 88, 12],
  [220, 38, 38],
];

export function isMetric(value: unknown): value is HeatmapMetric {
  return typeof value === "string" && (METRICS as readonly string[]).includes(value);
}

/** A reading's bucket on its metric's scale; NO_READING for null or NaN. Out-of-range clamps. */
export function bucketOf(metric: HeatmapMetric, value: number | null | undefined): number {
  if (value == null || Number.isNaN(value)) return NO_READING;
  const { min, max } = SCALES[metric];
  const share = (value - min) / (max - min);
  return Math.round(Math.min(1, Math.max(0, share)) * (BUCKETS - 1));
}

/** The ramp's colour at a share 0..1, linearly between its stops. */
export function rampColour(share: number): [number, number, number] {
  const position = Math.min(1, Math.max(0, share)) * (RAMP.length - 1);
  const low = Math.floor(position);
  const high = Math.min(RAMP.length - 1, low + 1);
  const t = position - low;
  const [aRed, aGreen, aBlue] = must(RAMP[low], `ramp stop ${low}`);
  const [bRed, bGreen, bBlue] = must(RAMP[high], `ramp stop ${high}`);
  const mix = (from: number, to: number) => Math.round(from + (to - from) * t);
  return [mix(aRed, bRed), mix(aGreen, bGreen), mix(aBlue, bBlue)];
}

function toCss([r, g, b]: readonly number[]): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/** One CSS colour per bucket (index 255 is "no reading", given by the theme). */
export function bucketStyles(noReadingCss: string): string[] {
  const styles = Array.from({ length: BUCKETS }, (_, bucket) =>
    toCss(rampColour(bucket / (BUCKETS - 1))),
  );
  styles.push(noReadingCss);
  return styles;
}

const IS_LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** One RGBA pixel as a Uint32Array element of an ImageData's buffer holds it (platform byte order). */
export function packRgba(red: number, green: number, blue: number, alpha = 255): number {
  const packed = IS_LITTLE_ENDIAN
    ? (alpha << 24) | (blue << 16) | (green << 8) | red
    : (red << 24) | (green << 16) | (blue << 8) | alpha;
  return packed >>> 0;
}

/** One packed pixel per bucket, as bucketStyles (index 255 is "no reading", given by the theme). */
export function bucketPixels(noReading: readonly [number, number, number, number]): Uint32Array {
  const pixels = new Uint32Array(BUCKETS + 1);
  for (let bucket = 0; bucket < BUCKETS; bucket++)
    pixels[bucket] = packRgba(...rampColour(bucket / (BUCKETS - 1)));
  pixels[NO_READING] = packRgba(...noReading);
  return pixels;
}

/** A CSS gradient of the ramp for the legend. */
export function legendGradient(): string {
  const stops = RAMP.map((rgb, i) => `${toCss(rgb)} ${Math.round((i / (RAMP.length - 1)) * 100)}%`);
  return `linear-gradient(to right, ${stops.join(", ")})`;
}

/** Evenly spaced tick values for the legend, from min to max. */
export function legendTicks(metric: HeatmapMetric, count = 5): number[] {
  const { min, max } = SCALES[metric];
  return Array.from({ length: count }, (_, i) => min + ((max - min) * i) / (count - 1));
}
