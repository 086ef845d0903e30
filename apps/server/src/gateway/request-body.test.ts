import { describe, expect, it } from "vitest";
import type { GatewayError } from "./errors";
import { parseV1Body, upstreamBody } from "./request-body";

const refusal = (raw: string, contentType?: string) => {
  try {
    parseV1Body(Buffer.from(raw), contentType);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error("expected a refusal");
};

describe("parseV1Body", () => {
  it("takes the model and the stream flag", () => {
    expect(
      parseV1Body(Buffer.from('{"model":"m","stream":true}'), "application/json; charset=utf-8"),
    ).toMatchObject({ model: "m", isStream: true });
  });

  it("names what is wrong, always as a 400", () => {
    expect(refusal("{oops", "application/json")).toMatchObject({
      status: 400,
      code: "invalid_json",
    });
    expect(refusal("[1]")).toMatchObject({
      status: 400,
      message: "the body must be a JSON object",
    });
    expect(refusal("{}")).toMatchObject({ status: 400, code: "missing_required_parameter" });
    expect(refusal('{"model":"m","stream":"yes"}')).toMatchObject({
      status: 400,
      message: "stream must be true or false",
    });
    expect(refusal('{"model":"m"}', "text/plain")).toMatchObject({
      status: 400,
      code: "invalid_content_type",
    });
  });
});

describe("upstreamBody", () => {
  const sent = (raw: object, path = "/v1/chat/completions", model = "m") =>
    JSON.parse(
      upstreamBody(
        parseV1Body(Buffer.from(JSON.stringify(raw)), undefined),
        path,
        model,
      ).toString(),
    ) as Record<string, unknown>;

  it("asks the engine for usage on every streamed chat and completion, keeping other options", () => {
    expect(sent({ model: "m", stream: true }).stream_options).toEqual({ include_usage: true });
    expect(
      sent(
        { model: "m", stream: true, stream_options: { continuous_usage_stats: true } },
        "/v1/completions",
      ).stream_options,
    ).toEqual({ continuous_usage_stats: true, include_usage: true });
    expect(parseV1Body(Buffer.from('{"model":"m","stream":true}'), undefined).wantsUsage).toBe(
      false,
    );
    expect(
      parseV1Body(
        Buffer.from('{"model":"m","stream":true,"stream_options":{"include_usage":true}}'),
        undefined,
      ).wantsUsage,
    ).toBe(true);
  });

  it("leaves other bodies as they came, and names the fallback it serves", () => {
    const raw = Buffer.from('{"model":"m","input":"x"}');
    expect(upstreamBody(parseV1Body(raw, undefined), "/v1/embeddings", "m")).toBe(raw);
    expect(sent({ model: "m" })).toEqual({ model: "m" });
    expect(sent({ model: "m", stream: true }, "/v1/embeddings", "b")).toEqual({
      model: "b",
      stream: true,
    });
  });
});
