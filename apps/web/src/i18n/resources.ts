// The bundled translations. Both languages ship in the client bundle: they are small, and the
// console must switch language instantly without a network round trip.
import accountEn from "../locales/en/account.json";
import auditEn from "../locales/en/audit.json";
import authEn from "../locales/en/auth.json";
import clusterEn from "../locales/en/cluster.json";
import commonEn from "../locales/en/common.json";
import eventsEn from "../locales/en/events.json";
import exploreEn from "../locales/en/explore.json";
import facilityEn from "../locales/en/facility.json";
import federationEn from "../locales/en/federation.json";
import keysEn from "../locales/en/keys.json";
import logsEn from "../locales/en/logs.json";
import mcpEn from "../locales/en/mcp.json";
import guardEn from "../locales/en/guard.json";
import modelsEn from "../locales/en/models.json";
import nodesEn from "../locales/en/nodes.json";
import peopleEn from "../locales/en/people.json";
import refusalsEn from "../locales/en/refusals.json";
import quotasEn from "../locales/en/quotas.json";
import replicasEn from "../locales/en/replicas.json";
import usageEn from "../locales/en/usage.json";
import signinSetupEn from "../locales/en/signin-setup.json";
import accountTr from "../locales/tr/account.json";
import auditTr from "../locales/tr/audit.json";
import authTr from "../locales/tr/auth.json";
import clusterTr from "../locales/tr/cluster.json";
import commonTr from "../locales/tr/common.json";
import eventsTr from "../locales/tr/events.json";
import exploreTr from "../locales/tr/explore.json";
import facilityTr from "../locales/tr/facility.json";
import federationTr from "../locales/tr/federation.json";
import keysTr from "../locales/tr/keys.json";
import logsTr from "../locales/tr/logs.json";
import mcpTr from "../locales/tr/mcp.json";
import guardTr from "../locales/tr/guard.json";
import modelsTr from "../locales/tr/models.json";
import nodesTr from "../locales/tr/nodes.json";
import peopleTr from "../locales/tr/people.json";
import refusalsTr from "../locales/tr/refusals.json";
import quotasTr from "../locales/tr/quotas.json";
import replicasTr from "../locales/tr/replicas.json";
import usageTr from "../locales/tr/usage.json";
import signinSetupTr from "../locales/tr/signin-setup.json";

export const NAMESPACES = [
  "common",
  "auth",
  "nodes",
  "models",
  "replicas",
  "quotas",
  "logs",
  "keys",
  "usage",
  "events",
  "people",
  "audit",
  "signin-setup",
  "cluster",
  "mcp",
  "guard",
  "account",
  "refusals",
  "explore",
  "facility",
  "federation",
] as const;

export const resources = {
  en: {
    common: commonEn,
    auth: authEn,
    nodes: nodesEn,
    models: modelsEn,
    replicas: replicasEn,
    quotas: quotasEn,
    logs: logsEn,
    keys: keysEn,
    usage: usageEn,
    events: eventsEn,
    explore: exploreEn,
    people: peopleEn,
    audit: auditEn,
    "signin-setup": signinSetupEn,
    cluster: clusterEn,
    mcp: mcpEn,
    guard: guardEn,
    account: accountEn,
    refusals: refusalsEn,
    facility: facilityEn,
    federation: federationEn,
  },
  tr: {
    common: commonTr,
    auth: authTr,
    nodes: nodesTr,
    models: modelsTr,
    replicas: replicasTr,
    quotas: quotasTr,
    logs: logsTr,
    keys: keysTr,
    usage: usageTr,
    events: eventsTr,
    explore: exploreTr,
    people: peopleTr,
    audit: auditTr,
    "signin-setup": signinSetupTr,
    cluster: clusterTr,
    mcp: mcpTr,
    guard: guardTr,
    account: accountTr,
    refusals: refusalsTr,
    facility: facilityTr,
    federation: federationTr,
  },
} as const;

export type EnglishResources = (typeof resources)["en"];
