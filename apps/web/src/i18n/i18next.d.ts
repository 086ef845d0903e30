// Makes t() keys type-checked against the English files, so a typo fails `tsc` instead of
// showing a raw key to an operator.
import "i18next";
import type { EnglishResources } from "./resources";

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: EnglishResources;
  }
}
