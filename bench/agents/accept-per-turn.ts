// How many connections Node accepts per turn of its event loop while the kernel's accept queue is
// full: `tsx agents/accept-per-turn.ts [connections] [busy ms per turn]` listens with pauseOnConnect
// (as the agent port does), opens the connections at once, and every 500 ms prints how many were
// accepted, what `ss` says still waits in the accept queue, and the most accepted in one turn.
// With a turn made to last `busy ms`, the accept rate follows the turn rate (issue 19's storm).
import { execFileSync } from "node:child_process";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";

const connections = Number(process.argv[2] ?? 2000);
const busyMs = Number(process.argv[3] ?? 0);
let accepted = 0;
let inTurn = 0;
let mostInTurn = 0;
const server = createServer({ pauseOnConnect: true }, (socket) => {
  socket.on("error", () => undefined);
  accepted += 1;
  inTurn += 1;
});
const turn = () => {
  mostInTurn = Math.max(mostInTurn, inTurn);
  inTurn = 0;
  setImmediate(turn);
};
setImmediate(turn);
if (busyMs > 0)
  setInterval(() => {
    const endMs = Date.now() + busyMs;
    while (Date.now() < endMs);
  }, 1);
server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, () => {
  const { port } = server.address() as AddressInfo;
  const clients: Socket[] = [];
  for (let at = 0; at < connections; at += 1)
    clients.push(connect(port, "127.0.0.1").on("error", () => undefined));
  const startMs = Date.now();
  const report = setInterval(() => {
    const line = execFileSync("ss", ["-ltnH", `sport = :${port}`], { encoding: "utf8" });
    const waiting = line.trim().split(/\s+/)[1] ?? "?";
    console.log(
      `+${Date.now() - startMs} ms: ${accepted} accepted, ${waiting} in the accept queue, at most ${mostInTurn} in one turn`,
    );
    if (accepted < connections && Date.now() - startMs < 20_000) return;
    clearInterval(report);
    for (const client of clients) client.destroy();
    server.close();
    process.exit(0);
  }, 500);
});
