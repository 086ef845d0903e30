import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { renderPicture } from "./images";
import { encodePng } from "./png";

describe("encodePng", () => {
  it("writes signature, IHDR, IDAT with filtered scanlines, and IEND", () => {
    const rgb = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9]);
    const png = encodePng(2, 2, rgb);
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(png.toString("ascii", 12, 16)).toBe("IHDR");
    expect(png.readUInt32BE(16)).toBe(2);
    const idatLength = png.readUInt32BE(33);
    expect(inflateSync(png.subarray(41, 41 + idatLength))).toEqual(
      Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 9, 9, 9]),
    );
    expect(png.subarray(-12).toString("hex")).toBe("0000000049454e44ae426082");
  });

  it("refuses a buffer of the wrong size", () => {
    expect(() => encodePng(2, 2, new Uint8Array(3))).toThrow(/3 bytes for 2x2/);
  });

  it("draws the same picture for the same prompt and a different one for another", () => {
    expect(renderPicture("fox", 0, 8, 8)).toEqual(renderPicture("fox", 0, 8, 8));
    expect(renderPicture("fox", 0, 8, 8)).not.toEqual(renderPicture("owl", 0, 8, 8));
  });
});
