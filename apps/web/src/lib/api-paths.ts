/** The console's own route answering its and the control plane's public addresses. */
export const CONSOLE_ADDRESSES_PATH = "/api/addresses";
