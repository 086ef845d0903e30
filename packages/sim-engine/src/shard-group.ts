// The rendezvous of a simulated replica spanning nodes, played over plain TCP the way vLLM's
// ranks meet at the master address: the leader (rank 0) listens at its master port and is not
// ready until every worker has joined; a worker connects (retrying until the leader listens),
// says its rank and is welcomed. When a joined peer goes away the survivor gives up, as a real
// engine whose collective broke does: the process exits and its shard fails.
import { createServer, connect, type Server, type Socket } from "node:net";
import type { MultiNodeConfig } from "./multi-node";

const RETRY_MS = 500;

export interface ShardGroup {
  readonly rank: number;
  readonly isWorker: boolean;
  /** The leader: every worker joined. A worker: the leader welcomed it. */
  isJoined(): boolean;
  /** The leader listens at its master port; a worker starts joining. */
  start(): Promise<void>;
  close(): void;
}

/** `onLost` is called once, with a sentence, when a joined peer goes away. */
export function createShardGroup(
  config: MultiNodeConfig,
  bindHost: string,
  onLost: (why: string) => void,
  log: (line: string) => void,
): ShardGroup {
  return config.nodeRank === 0
    ? leaderGroup(config, bindHost, onLost, log)
    : workerGroup(config, onLost, log);
}

/** Reads the first line a socket sends. */
function onFirstLine(socket: Socket, handle: (line: string) => void): void {
  let buffered = "";
  const onData = (chunk: Buffer): void => {
    buffered += chunk.toString("utf8");
    const end = buffered.indexOf("\n");
    if (end === -1 && buffered.length < 256) return;
    socket.off("data", onData);
    handle(buffered.slice(0, Math.max(0, end)).trim());
  };
  socket.on("data", onData);
}

function leaderGroup(
  config: MultiNodeConfig,
  bindHost: string,
  onLost: (why: string) => void,
  log: (line: string) => void,
): ShardGroup {
  const joined = new Set<number>();
  let isClosing = false;
  const admit = (socket: Socket, line: string): void => {
    const rank = Number(/^join (\d+)$/.exec(line)?.[1] ?? Number.NaN);
    if (!Number.isInteger(rank) || rank < 1 || rank >= config.nodeCount || joined.has(rank)) {
      socket.end(`refused: "${line}" is not a free worker rank of ${config.nodeCount} nodes\n`);
      return;
    }
    joined.add(rank);
    socket.write("welcome\n");
    log(`sim-engine: worker shard rank ${rank} joined (${joined.size + 1}/${config.nodeCount})`);
    socket.once("close", () => {
      joined.delete(rank);
      if (!isClosing) onLost(`worker shard rank ${rank} left the group; the engine cannot go on`);
    });
  };
  const server: Server = createServer((socket) => {
    socket.on("error", () => undefined);
    onFirstLine(socket, (line) => admit(socket, line));
  });
  return {
    rank: 0,
    isWorker: false,
    isJoined: () => joined.size === config.nodeCount - 1,
    start: () =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(config.masterPort, bindHost, () => {
          server.off("error", reject);
          log(
            `sim-engine: leader shard waiting for ${config.nodeCount - 1} workers on port ${config.masterPort}`,
          );
          resolve();
        });
      }),
    close: () => {
      isClosing = true;
      server.close();
    },
  };
}

function workerGroup(
  config: MultiNodeConfig,
  onLost: (why: string) => void,
  log: (line: string) => void,
): ShardGroup {
  const leader = `${config.masterAddr}:${config.masterPort}`;
  let isJoined = false;
  let isClosing = false;
  let socket: Socket | undefined;
  let retry: NodeJS.Timeout | undefined;
  const attempt = (): void => {
    const current = connect(config.masterPort, config.masterAddr);
    socket = current;
    current.on("error", () => undefined);
    current.once("connect", () => current.write(`join ${config.nodeRank}\n`));
    onFirstLine(current, (line) => {
      if (line !== "welcome") return log(`sim-engine: leader at ${leader} said: ${line}`);
      isJoined = true;
      log(`sim-engine: worker shard rank ${config.nodeRank} joined the leader at ${leader}`);
    });
    current.once("close", () => {
      if (isClosing) return;
      if (isJoined)
        return onLost(`the leader shard at ${leader} went away; the engine cannot go on`);
      retry = setTimeout(attempt, RETRY_MS);
    });
  };
  return {
    rank: config.nodeRank,
    isWorker: true,
    isJoined: () => isJoined,
    start: () => {
      attempt();
      return Promise.resolve();
    },
    close: () => {
      isClosing = true;
      clearTimeout(retry);
      socket?.destroy();
    },
  };
}
