export { runServer, startServer, type RunningServer } from "./main";
export { parseServerConfig, type ServerConfig } from "./config";
export { createOwnershipResolver } from "./identity/ownership";
