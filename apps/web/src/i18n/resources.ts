// The bundled translations. Both languages ship in the client bundle: they are small, and the
// console must switch language instantly without a network round trip.
import authEn from "../locales/en/auth.json";
import commonEn from "../locales/en/common.json";
import nodesEn from "../locales/en/nodes.json";
import authTr from "../locales/tr/auth.json";
import commonTr from "../locales/tr/common.json";
import nodesTr from "../locales/tr/nodes.json";

export const NAMESPACES = ["common", "auth", "nodes"] as const;

export const resources = {
  en: { common: commonEn, auth: authEn, nodes: nodesEn },
  tr: { common: commonTr, auth: authTr, nodes: nodesTr },
} as const;

export type EnglishResources = (typeof resources)["en"];
