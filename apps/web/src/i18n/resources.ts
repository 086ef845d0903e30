// The bundled translations. Both languages ship in the client bundle: they are small, and the
// console must switch language instantly without a network round trip.
import authEn from "../locales/en/auth.json";
import clusterEn from "../locales/en/cluster.json";
import commonEn from "../locales/en/common.json";
import modelsEn from "../locales/en/models.json";
import nodesEn from "../locales/en/nodes.json";
import replicasEn from "../locales/en/replicas.json";
import authTr from "../locales/tr/auth.json";
import clusterTr from "../locales/tr/cluster.json";
import commonTr from "../locales/tr/common.json";
import modelsTr from "../locales/tr/models.json";
import nodesTr from "../locales/tr/nodes.json";
import replicasTr from "../locales/tr/replicas.json";

export const NAMESPACES = ["common", "auth", "nodes", "models", "replicas", "cluster"] as const;

export const resources = {
  en: {
    common: commonEn,
    auth: authEn,
    nodes: nodesEn,
    models: modelsEn,
    replicas: replicasEn,
    cluster: clusterEn,
  },
  tr: {
    common: commonTr,
    auth: authTr,
    nodes: nodesTr,
    models: modelsTr,
    replicas: replicasTr,
    cluster: clusterTr,
  },
} as const;

export type EnglishResources = (typeof resources)["en"];
