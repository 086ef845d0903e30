// The agent's fabric-test steps against a fake sysfs tree (written the way the kernel lays out
// /sys/class/infiniband) and recorded programs: perftest's output is a real capture, the programs
// themselves are simulated because this machine has no RDMA adapter.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FabricTestRole, type FabricTestRequest } from "@llmgw/proto";
import { tempDir, type TempDir } from "@llmgw/testing";
import { ExecError, type ExecFn } from "../discovery/exec";
import { answerFabricTest, NO_RDMA, type FabricDeps } from "./fabric-reply";
import type { RunningProgram, StartFn } from "./perftest";

const CAPTURE = join(import.meta.dirname, "../../test/fixtures/perftest");

let dirs: TempDir[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((dir) => dir.remove()));
  dirs = [];
});

interface FakePort {
  rate: string;
  linkLayer: string;
  gids?: Record<number, { type: string; gid: string }>;
  netdev?: string;
}

async function fakeSysfs(adapters: Record<string, FakePort>): Promise<string> {
  const dir = await tempDir("fabric-sysfs");
  dirs.push(dir);
  for (const [name, port] of Object.entries(adapters)) {
    const portDir = join(dir.path, name, "ports/1");
    await mkdir(join(portDir, "gid_attrs/types"), { recursive: true });
    await mkdir(join(portDir, "gids"), { recursive: true });
    await writeFile(join(portDir, "state"), "4: ACTIVE\n");
    await writeFile(join(portDir, "rate"), `${port.rate}\n`);
    await writeFile(join(portDir, "link_layer"), `${port.linkLayer}\n`);
    for (const [index, gid] of Object.entries(port.gids ?? {})) {
      await writeFile(join(portDir, "gid_attrs/types", index), `${gid.type}\n`);
      await writeFile(join(portDir, "gids", index), `${gid.gid}\n`);
    }
    if (port.netdev !== undefined)
      await mkdir(join(dir.path, name, "device/net", port.netdev), { recursive: true });
  }
  return dir.path;
}

const ROCE_GIDS = {
  0: { type: "IB/RoCE v1", gid: "fe80:0000:0000:0000:0a00:00ff:fe00:0001" },
  1: { type: "RoCE v2", gid: "fe80:0000:0000:0000:0a00:00ff:fe00:0001" },
  2: { type: "IB/RoCE v1", gid: "0000:0000:0000:0000:0000:ffff:0a00:0002" },
  3: { type: "RoCE v2", gid: "0000:0000:0000:0000:0000:ffff:0a00:0002" },
};

function request(role: FabricTestRole, init: Partial<FabricTestRequest> = {}): FabricTestRequest {
  return {
    role,
    adapter: "",
    port: 0,
    peerAddress: "",
    durationSeconds: 5,
    sizeBytes: 0,
    ...init,
  } as FabricTestRequest;
}

function deps(sysfsRoot: string, exec: ExecFn, start: StartFn = vi.fn()): FabricDeps {
  return {
    sysfsRoot,
    exec,
    start,
    networkInterfaces: () => ({
      lo: [{ address: "127.0.0.1", family: "IPv4", internal: true } as never],
      eno1: [{ address: "192.168.1.10", family: "IPv4", internal: false } as never],
      ens1f0np0: [{ address: "10.0.0.2", family: "IPv4", internal: false } as never],
    }),
  };
}

const present: ExecFn = async () => ({ exitCode: 0, stdout: "Version: 6.22\n", stderr: "" });

describe("answerFabricTest", () => {
  it("answers clearly that a node without RDMA adapters has none, whatever the step", async () => {
    const root = await fakeSysfs({});
    const exec = vi.fn(present);
    for (const role of [FabricTestRole.ADAPTERS, FabricTestRole.SERVER, FabricTestRole.CLIENT])
      expect(await answerFabricTest(deps(join(root, "absent"), exec), request(role))).toEqual({
        error: NO_RDMA,
      });
    expect(exec).not.toHaveBeenCalled();
  });

  it("lists adapters in NCCL's order with their rate and a RoCE v2 GID, installing perftest once", async () => {
    const root = await fakeSysfs({
      mlx5_10: { rate: "400 Gb/sec (4X NDR)", linkLayer: "InfiniBand" },
      mlx5_2: { rate: "200 Gb/sec (4X HDR)", linkLayer: "Ethernet", gids: ROCE_GIDS },
    });
    let installed = false;
    const exec = vi.fn<ExecFn>(async (file) => {
      if (file === "env") {
        installed = true;
        return { exitCode: 0, stdout: "", stderr: "" };
      }
      if (!installed) throw new ExecError("ib_write_bw: not found", "ENOENT", false);
      return present(file, [], { timeoutMs: 1 });
    });
    const reply = await answerFabricTest(deps(root, exec), request(FabricTestRole.ADAPTERS));
    expect(reply.error).toBeUndefined();
    expect(reply.adapters).toEqual([
      {
        name: "mlx5_2",
        state: "4: ACTIVE",
        rateGbps: 200,
        rateText: "200 Gb/sec (4X HDR)",
        linkLayer: "Ethernet",
        gidIndex: 3,
      },
      {
        name: "mlx5_10",
        state: "4: ACTIVE",
        rateGbps: 400,
        rateText: "400 Gb/sec (4X NDR)",
        linkLayer: "InfiniBand",
        gidIndex: -1,
      },
    ]);
    expect(exec.mock.calls.map(([file, args]) => [file, ...args].join(" "))).toEqual([
      "ib_write_bw --version",
      "env DEBIAN_FRONTEND=noninteractive apt-get install -y perftest",
      "ib_write_bw --version",
    ]);
  });

  it("says what to do when perftest cannot be installed", async () => {
    const root = await fakeSysfs({
      mlx5_0: { rate: "400 Gb/sec (4X NDR)", linkLayer: "InfiniBand" },
    });
    const exec: ExecFn = async (file) => {
      if (file === "env")
        return { exitCode: 100, stdout: "", stderr: "E: Unable to locate package perftest\n" };
      throw new ExecError("ib_write_bw: not found", "ENOENT", false);
    };
    const reply = await answerFabricTest(deps(root, exec), request(FabricTestRole.ADAPTERS));
    expect(reply.error).toBe(
      "ib_write_bw is not installed and `apt-get install -y perftest` could not install it: E: Unable to locate package perftest; install perftest on the node",
    );
  });

  it("starts the server on the adapter and answers once it waits, with the adapter's address", async () => {
    const root = await fakeSysfs({
      mlx5_0: {
        rate: "200 Gb/sec (4X HDR)",
        linkLayer: "Ethernet",
        gids: ROCE_GIDS,
        netdev: "ens1f0np0",
      },
    });
    const banner = await readFile(join(CAPTURE, "write-bw-server-issue-234.txt"), "utf8");
    const started: string[][] = [];
    const start: StartFn = (file, args) => {
      started.push([file, ...args]);
      let listener: (text: string) => void = () => undefined;
      const program: RunningProgram = {
        onOutput: (fn) => {
          listener = fn;
        },
        exited: new Promise(() => undefined),
        kill: vi.fn(),
      };
      setTimeout(() => listener(banner.slice(0, 80)), 10);
      return program;
    };
    const reply = await answerFabricTest(
      deps(root, present, start),
      request(FabricTestRole.SERVER, { adapter: "mlx5_0", port: 18515, durationSeconds: 5 }),
    );
    expect(reply).toEqual({ address: "10.0.0.2" });
    expect(started).toEqual([
      ["ib_write_bw", "-d", "mlx5_0", "--report_gbits", "-F", "-D", "5", "-p", "18515", "-x", "3"],
    ]);
  });

  it("reports a server that exits before listening, with its output", async () => {
    const root = await fakeSysfs({
      mlx5_0: { rate: "400 Gb/sec (4X NDR)", linkLayer: "InfiniBand" },
    });
    const start: StartFn = () => ({
      onOutput: (fn) => setTimeout(() => fn(" Couldn't listen to port 18515\n"), 1),
      exited: new Promise((resolve) => setTimeout(() => resolve(1), 20)),
      kill: vi.fn(),
    });
    const reply = await answerFabricTest(
      deps(root, present, start),
      request(FabricTestRole.SERVER, { adapter: "mlx5_0" }),
    );
    expect(reply.error).toBe(
      "ib_write_bw exited (status 1) before a client came: Couldn't listen to port 18515",
    );
  });

  it("runs the client against the peer and reads the result table by its heading", async () => {
    const root = await fakeSysfs({
      mlx5_0: { rate: "400 Gb/sec (4X NDR)", linkLayer: "InfiniBand" },
    });
    const output = await readFile(join(CAPTURE, "write-bw-gbits-issue-273.txt"), "utf8");
    const exec = vi.fn<ExecFn>(async () => ({ exitCode: 0, stdout: output, stderr: "" }));
    const reply = await answerFabricTest(
      deps(root, exec),
      request(FabricTestRole.CLIENT, {
        adapter: "mlx5_0",
        peerAddress: "10.0.0.2",
        durationSeconds: 3,
      }),
    );
    expect(reply).toMatchObject({ averageGbps: 0.48, peakGbps: 0, messageRateMpps: 7.498617 });
    expect(exec.mock.calls[0]?.[1]).toEqual([
      "-d",
      "mlx5_0",
      "--report_gbits",
      "-F",
      "-D",
      "3",
      "10.0.0.2",
    ]);
    const unknown = await answerFabricTest(
      deps(root, exec),
      request(FabricTestRole.CLIENT, { adapter: "mlx5_9", peerAddress: "10.0.0.2" }),
    );
    expect(unknown.error).toBe('no RDMA adapter "mlx5_9" on this node (it has mlx5_0)');
  });
});
