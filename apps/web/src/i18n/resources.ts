// The bundled translations. Both languages ship in the client bundle: they are small, and the
// console must switch language instantly without a network round trip.
import authEn from "../locales/en/auth.json";
import commonEn from "../locales/en/common.json";
import mcpEn from "../locales/en/mcp.json";
import modelsEn from "../locales/en/models.json";
import nodesEn from "../locales/en/nodes.json";
import replicasEn from "../locales/en/replicas.json";
import authTr from "../locales/tr/auth.json";
import commonTr from "../locales/tr/common.json";
import mcpTr from "../locales/tr/mcp.json";
import modelsTr from "../locales/tr/models.json";
import nodesTr from "../locales/tr/nodes.json";
import replicasTr from "../locales/tr/replicas.json";

export const NAMESPACES = ["common", "auth", "nodes", "models", "replicas", "mcp"] as const;

export const resources = {
  en: {
    common: commonEn,
    auth: authEn,
    nodes: nodesEn,
    models: modelsEn,
    replicas: replicasEn,
    mcp: mcpEn,
  },
  tr: {
    common: commonTr,
    auth: authTr,
    nodes: nodesTr,
    models: modelsTr,
    replicas: replicasTr,
    mcp: mcpTr,
  },
} as const;

export type EnglishResources = (typeof resources)["en"];
