// What a node's log page offers: its sources (the agent's own log, then one per replica) and the
// line counts to show. The page and its toolbar both read these, so they live apart from either.

export const LOG_LINE_CHOICES = [100, 200, 500, 1000, 2000] as const;
export const AGENT_SOURCE = "agent";
