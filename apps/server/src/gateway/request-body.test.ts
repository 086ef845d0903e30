import { describe, expect, it } from "vitest";
import type { GatewayError } from "./errors";
import { parseV1Body } from "./request-body";

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
