// A real S3-compatible server for the S3 mirror tests: moto_server (`pip install 'moto[server]'`)
// on a free loopback port. moto 5 checks no signature unless INITIAL_NO_AUTH_ACTION_COUNT is set;
// then it checks header-signed (Authorization) requests against keys made through its IAM API,
// but never the signature of a presigned URL (and fails such a GET). So a store started with
// `auth` serves the server's own signed requests only; one without serves nodes' presigned GETs.
import { execFileSync } from "node:child_process";
import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { freePort, spawnProcess, type SpawnedProcess } from "@llmgw/testing";

export interface MotoStore {
  endpoint: string;
  process: SpawnedProcess;
  accessKeyId: string;
  secretAccessKey: string;
  /** A header-signed request with the store's keys (PUT a file, create the bucket). */
  send(method: string, path: string, body?: Buffer | string): Promise<Response>;
  stop(): Promise<void>;
}

function motoServerPath(): string {
  try {
    return execFileSync("sh", ["-c", "command -v moto_server"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error(
      "moto_server is not on PATH; the S3 mirror tests need it: pip install 'moto[server]'",
    );
  }
}

async function signedFetch(
  endpoint: string,
  keys: { accessKeyId: string; secretAccessKey: string },
  method: string,
  path: string,
  body?: Buffer | string,
): Promise<Response> {
  const url = new URL(path, endpoint);
  const signer = new SignatureV4({
    credentials: keys,
    region: "us-east-1",
    service: "s3",
    sha256: Sha256,
    uriEscapePath: false,
  });
  const signed = await signer.sign({
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    path: url.pathname,
    headers: { host: url.host, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
  });
  const { host: _host, ...headers } = signed.headers;
  return fetch(url, { method, headers, ...(body !== undefined && { body }) });
}

/** IAM's query API, unsigned: counted against INITIAL_NO_AUTH_ACTION_COUNT. */
async function iam(endpoint: string, params: Record<string, string>): Promise<string> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization:
        "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/iam/aws4_request, Signature=x",
    },
    body: new URLSearchParams({ Version: "2010-05-08", ...params }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`moto IAM ${params.Action}: HTTP ${response.status} ${text}`);
  return text;
}

/**
 * moto_server with a bucket. `auth`: signatures are checked, against a user with full S3 rights
 * made here (its keys are the store's); otherwise any keys are taken.
 */
export async function startMoto(options: { bucket: string; auth: boolean }): Promise<MotoStore> {
  const port = await freePort();
  const env: Record<string, string> = { MOTO_PORT: String(port) };
  if (options.auth) env.INITIAL_NO_AUTH_ACTION_COUNT = "3";
  const child = spawnProcess(motoServerPath(), ["-H", "127.0.0.1", "-p", String(port)], {
    name: options.auth ? "moto-auth" : "moto",
    env,
  });
  await child.waitForOutput(/Running on/, 30_000);
  const endpoint = `http://127.0.0.1:${port}`;
  let keys = { accessKeyId: "AKIAS3MIRRORTEST0001", secretAccessKey: "s3-mirror-test-secret-0001" };
  if (options.auth) {
    await iam(endpoint, { Action: "CreateUser", UserName: "mirror" });
    const created = await iam(endpoint, { Action: "CreateAccessKey", UserName: "mirror" });
    const policy = {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "s3:*", Resource: "*" }],
    };
    await iam(endpoint, {
      Action: "PutUserPolicy",
      UserName: "mirror",
      PolicyName: "s3",
      PolicyDocument: JSON.stringify(policy),
    });
    keys = {
      accessKeyId: /<AccessKeyId>([^<]+)</.exec(created)?.[1] ?? "",
      secretAccessKey: /<SecretAccessKey>([^<]+)</.exec(created)?.[1] ?? "",
    };
  }
  const send = (method: string, path: string, body?: Buffer | string) =>
    signedFetch(endpoint, keys, method, path, body);
  const made = await send("PUT", `/${options.bucket}`);
  if (!made.ok)
    throw new Error(`moto: creating the bucket: HTTP ${made.status} ${await made.text()}`);
  return { endpoint, process: child, ...keys, send, stop: async () => void (await child.stop()) };
}
