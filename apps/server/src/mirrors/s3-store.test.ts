// The presigner against AWS's own example of a presigned URL (S3 docs, "Authenticating Requests:
// Using Query Parameters"): same keys, date and expiry give the signature AWS prints.
import { describe, expect, it } from "vitest";
import { RedactedSecret } from "./mirror-config";
import { presignedGet, s3Encode, s3Signer } from "./s3-store";

const access = {
  endpoint: "https://examplebucket.s3.amazonaws.com",
  region: "us-east-1",
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: new RedactedSecret("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
};

describe("presignedGet", () => {
  it("gives the signature of AWS's example presigned URL", async () => {
    const url = await presignedGet(
      s3Signer(access),
      access.endpoint,
      "/test.txt",
      new Date("2013-05-24T00:00:00Z"),
      86_400,
    );
    expect(url).toBe(
      "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256" +
        "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request" +
        "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400" +
        "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404" +
        "&X-Amz-SignedHeaders=host",
    );
    expect(url).not.toContain("wJalrXUtnFEMI");
  });

  it("clamps the expiry to the 7 days S3 allows", async () => {
    const url = await presignedGet(s3Signer(access), access.endpoint, "/t", new Date(0), 10 ** 9);
    expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("604800");
  });

  it("encodes a key the way S3 canonicalises it", () => {
    expect(s3Encode("m (1)!*.safetensors")).toBe("m%20%281%29%21%2A.safetensors");
  });
});
