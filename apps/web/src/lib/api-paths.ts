/** The console's own route answering its and the control plane's public addresses. */
export const CONSOLE_ADDRESSES_PATH = "/api/addresses";

/** The console's own route answering which console build is running now. */
export const CONSOLE_VERSION_PATH = "/api/console-version";
