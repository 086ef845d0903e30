// Reads the API key from `Authorization: Bearer <key>`. A header that is there but malformed is
// answered as malformed, with what to write instead: calling it a missing key sends people looking
// for a header they did send.

export type BearerKey =
  | { ok: true; key: string }
  | { ok: false; code: "missing_api_key" | "malformed_authorization"; why: string };

/** What nearly every client sends: `Bearer ` and one word. Read without trimming and splitting. */
const PLAIN_BEARER = /^Bearer (\S+)$/;

export function bearerKeyOf(header: string | undefined): BearerKey {
  const plain = header === undefined ? null : PLAIN_BEARER.exec(header);
  if (plain?.[1] !== undefined) return { ok: true, key: plain[1] };
  if (header === undefined || header.trim() === "")
    return {
      ok: false,
      code: "missing_api_key",
      why: "no API key: send Authorization: Bearer llmgw_…",
    };
  const [scheme = "", ...words] = header.trim().split(/\s+/);
  if (scheme.toLowerCase() !== "bearer")
    return {
      ok: false,
      code: "malformed_authorization",
      why: `the Authorization header uses the scheme "${scheme.slice(0, 20)}"; send Authorization: Bearer llmgw_…`,
    };
  const [key] = words;
  if (key === undefined)
    return {
      ok: false,
      code: "malformed_authorization",
      why: "the Authorization header says Bearer but holds no key; send Authorization: Bearer llmgw_…",
    };
  if (words.length > 1)
    return {
      ok: false,
      code: "malformed_authorization",
      why: `the Authorization header holds ${words.length} words after Bearer; send the key alone: Authorization: Bearer llmgw_…`,
    };
  return { ok: true, key };
}
