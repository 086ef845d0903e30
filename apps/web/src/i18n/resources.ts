// The bundled translations. Both languages ship in the client bundle: they are small, and the
// console must switch language instantly without a network round trip.
import auditEn from "../locales/en/audit.json";
import authEn from "../locales/en/auth.json";
import commonEn from "../locales/en/common.json";
import modelsEn from "../locales/en/models.json";
import nodesEn from "../locales/en/nodes.json";
import peopleEn from "../locales/en/people.json";
import replicasEn from "../locales/en/replicas.json";
import signinSetupEn from "../locales/en/signin-setup.json";
import auditTr from "../locales/tr/audit.json";
import authTr from "../locales/tr/auth.json";
import commonTr from "../locales/tr/common.json";
import modelsTr from "../locales/tr/models.json";
import nodesTr from "../locales/tr/nodes.json";
import peopleTr from "../locales/tr/people.json";
import replicasTr from "../locales/tr/replicas.json";
import signinSetupTr from "../locales/tr/signin-setup.json";

export const NAMESPACES = [
  "common",
  "auth",
  "nodes",
  "models",
  "replicas",
  "people",
  "audit",
  "signin-setup",
] as const;

export const resources = {
  en: {
    common: commonEn,
    auth: authEn,
    nodes: nodesEn,
    models: modelsEn,
    replicas: replicasEn,
    people: peopleEn,
    audit: auditEn,
    "signin-setup": signinSetupEn,
  },
  tr: {
    common: commonTr,
    auth: authTr,
    nodes: nodesTr,
    models: modelsTr,
    replicas: replicasTr,
    people: peopleTr,
    audit: auditTr,
    "signin-setup": signinSetupTr,
  },
} as const;

export type EnglishResources = (typeof resources)["en"];
