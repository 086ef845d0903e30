// Live state of the MCP gateway in this process: a breaker per server (five failures in a row
// take it out for a while, its tools off the list), each caller's calls a minute per server, and
// each server's tool list kept briefly so listing does not reach every upstream every time.
import { Breaker, MinuteWindow } from "@llmgw/domain";

const TOOL_LIST_CACHE_MS = 10_000;
export const MCP_FAILURES_TO_OPEN = 5;

export interface UpstreamTool {
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  [key: string]: unknown;
}

export class McpRuntime {
  private readonly breakers = new Map<string, Breaker>();
  private readonly windows = new Map<string, MinuteWindow>();
  private readonly tools = new Map<string, { tools: UpstreamTool[]; atMs: number }>();

  constructor(
    private readonly breakerOpenMs: number,
    readonly nowMs: () => number,
  ) {}

  breaker(server: string): Breaker {
    let breaker = this.breakers.get(server);
    if (!breaker) {
      breaker = new Breaker({
        failuresToOpen: MCP_FAILURES_TO_OPEN,
        openForMs: this.breakerOpenMs,
      });
      this.breakers.set(server, breaker);
    }
    return breaker;
  }

  /** Whether the server is taken out now (its breaker open and not yet due a probe). */
  isOut(server: string): boolean {
    return this.breakers.get(server)?.stateAt(this.nowMs()) === "open";
  }

  outForMs(server: string): number {
    return this.breakers.get(server)?.msUntilProbe(this.nowMs()) ?? 0;
  }

  /** Counts one call; answers the seconds to wait instead when the caller is over the rate. */
  admitCall(caller: string, server: string, callsPerMinute: number | null): number | null {
    if (callsPerMinute === null) return null;
    const key = `${caller}\u0000${server}`;
    let window = this.windows.get(key);
    if (!window) {
      window = new MinuteWindow();
      this.windows.set(key, window);
    }
    const now = this.nowMs();
    if (window.total(now) >= callsPerMinute)
      return Math.max(1, window.retryAfterSeconds(now, callsPerMinute));
    window.add(now, 1);
    return null;
  }

  cachedTools(server: string, version: number): UpstreamTool[] | null {
    const hit = this.tools.get(`${server}@${version}`);
    return hit && this.nowMs() - hit.atMs < TOOL_LIST_CACHE_MS ? hit.tools : null;
  }

  rememberTools(server: string, version: number, tools: UpstreamTool[]): void {
    this.tools.set(`${server}@${version}`, { tools, atMs: this.nowMs() });
  }

  /** A server changed or went: its breaker, cached tools and counters start afresh. */
  forget(server: string): void {
    this.breakers.delete(server);
    for (const key of this.tools.keys()) if (key.startsWith(`${server}@`)) this.tools.delete(key);
  }
}
