export { runServer, startServer, type RunningServer } from "./main";
export { parseServerConfig, type ServerConfig } from "./config";
export { readOrCreateSecretFile, randomToken } from "./secrets";
export { createOwnershipResolver } from "./identity/ownership";
