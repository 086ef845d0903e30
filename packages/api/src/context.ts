// What every procedure receives. The server builds it per request; the API package knows nothing
// of databases or sockets, only these service interfaces.
import type { LoginOutput, NodeView, UserView } from "./schemas";

export interface NodesService {
  list(): Promise<NodeView[]>;
  get(id: string): Promise<NodeView | null>;
}

export interface AuthService {
  /** Checks a password and opens a session; null when the pair does not match. */
  login(username: string, password: string): Promise<LoginOutput | null>;
  logout(token: string): Promise<void>;
}

export interface ApiServices {
  nodes: NodesService;
  auth: AuthService;
}

export interface ApiContext {
  services: ApiServices;
  /** The caller's session token, from the cookie or `Authorization: Bearer`. */
  sessionToken: string | null;
  /** The signed-in user, resolved from the token before the procedure runs. */
  user: UserView | null;
  setSessionCookie(token: string, expiresAt: Date): void;
  clearSessionCookie(): void;
}
