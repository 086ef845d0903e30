// Where a node stands in the building: site, room, row, rack and power distribution unit, read from
// its `llmgw.io/<kind>` labels. Placement spreads, keeps within, holds and caps by these domains,
// so they are named the same way everywhere: `rack=r12`.

export const DOMAIN_KINDS = ["site", "room", "row", "rack", "pdu"] as const;
export type DomainKind = (typeof DOMAIN_KINDS)[number];

/** A domain a node belongs to: one value of one kind, such as rack r12. */
export interface Domain {
  kind: DomainKind;
  value: string;
}

const LABEL_PREFIX = "llmgw.io/";

/**
 * The network fabric a node's cards reach other nodes over (an InfiniBand or RoCE island): a
 * replica spanning nodes needs its nodes on one, so free nodes are counted per fabric.
 */
export const FABRIC_LABEL = `${LABEL_PREFIX}fabric`;

/**
 * Each kind's label, made once: placement reads a node's rack and PDU for every node of every
 * pass, and a key built per read was a new string to hash for each lookup.
 */
const DOMAIN_LABELS: Readonly<Record<DomainKind, string>> = {
  site: `${LABEL_PREFIX}site`,
  room: `${LABEL_PREFIX}room`,
  row: `${LABEL_PREFIX}row`,
  rack: `${LABEL_PREFIX}rack`,
  pdu: `${LABEL_PREFIX}pdu`,
};

export function domainLabel(kind: DomainKind): string {
  return DOMAIN_LABELS[kind];
}

export function isDomainKind(word: string): word is DomainKind {
  return (DOMAIN_KINDS as readonly string[]).includes(word);
}

/** The domain of one kind a node is in, from its labels; undefined when it does not say. */
export function domainOf(
  labels: Readonly<Record<string, string>>,
  kind: DomainKind,
): string | undefined {
  return labels[domainLabel(kind)];
}

/** Every domain a node says it is in, widest first. */
export function locationOf(labels: Readonly<Record<string, string>>): Domain[] {
  return DOMAIN_KINDS.flatMap((kind) => {
    const value = domainOf(labels, kind);
    return value === undefined ? [] : [{ kind, value }];
  });
}

/**
 * A location in one short word for tables: `dc1/a/3/r12/p7`, widest first, `-` for a kind the node
 * does not name, and `-` alone for a node that names none.
 */
export function formatLocation(labels: Readonly<Record<string, string>>): string {
  const parts = DOMAIN_KINDS.map((kind) => domainOf(labels, kind) ?? "-");
  return parts.every((part) => part === "-") ? "-" : parts.join("/");
}

export function formatDomain(domain: Domain): string {
  return `${domain.kind}=${domain.value}`;
}

export function isInDomain(labels: Readonly<Record<string, string>>, domain: Domain): boolean {
  return domainOf(labels, domain.kind) === domain.value;
}

// A label value as Kubernetes allows it: short, and safe in a table, a URL and a shell.
const VALUE_PATTERN = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const NAME_PATTERN = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,61}[A-Za-z0-9])?$/;
const PREFIX_PATTERN = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/;

/** Why a label key is refused, or undefined when it is fine: an optional DNS prefix and a name. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf("/");
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (prefix !== undefined && !PREFIX_PATTERN.test(prefix))
    return `label key "${key}" has a bad prefix; use a lower-case DNS name such as llmgw.io`;
  if (!NAME_PATTERN.test(name))
    return `label key "${key}" is not valid; use 1 to 63 letters, digits, "-", "_" or "." starting and ending with a letter or digit`;
  if (prefix === "llmgw.io" && name !== "role" && name !== "fabric" && !isDomainKind(name))
    return `label key "${key}" is not one llmgw knows; llmgw.io/ keys are ${[...DOMAIN_KINDS.map(domainLabel), FABRIC_LABEL, `${LABEL_PREFIX}role`].join(", ")}`;
  return undefined;
}

/** Why a label value is refused, or undefined when it is fine. */
export function labelValueProblem(key: string, value: string): string | undefined {
  if (VALUE_PATTERN.test(value)) return undefined;
  return `label ${key} has value "${value}", which is not valid; use 1 to 63 letters, digits, "-", "_" or "." starting and ending with a letter or digit`;
}

/** `rack=r12` as a domain, or the sentence saying what is wrong with it. */
export function parseDomain(
  text: string,
): { ok: true; domain: Domain } | { ok: false; error: string } {
  const at = text.indexOf("=");
  const kind = at < 0 ? text : text.slice(0, at);
  const value = at < 0 ? "" : text.slice(at + 1);
  if (!isDomainKind(kind))
    return {
      ok: false,
      error: `domain "${text}" names no domain kind; write KIND=VALUE with KIND one of ${DOMAIN_KINDS.join(", ")}`,
    };
  if (value === "")
    return { ok: false, error: `domain "${text}" has no value; write ${kind}=VALUE` };
  const problem = labelValueProblem(domainLabel(kind), value);
  return problem === undefined
    ? { ok: true, domain: { kind, value } }
    : { ok: false, error: problem };
}
