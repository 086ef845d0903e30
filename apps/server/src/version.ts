import { LLMGW_VERSION } from "@llmgw/domain";

export const SERVER_VERSION = LLMGW_VERSION;
