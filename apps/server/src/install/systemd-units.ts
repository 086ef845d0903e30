// The systemd units `llmgw server init` writes into the home for the operator to install. They run
// `<root>/current/bin/llmgw`, so an upgrade that swaps the `current` link and exits with status 75
// is restarted into the new release by `Restart=always`. The agent's unit stops only the agent
// (KillMode=process): its engines are separate process groups it adopts again after a restart,
// and a control-group kill would take every model on the node down with each agent upgrade.
export interface UnitOptions {
  /** Where releases are unpacked side by side, with the `current` link (e.g. /opt/llmgw). */
  installRoot: string;
  /** The control plane's home (settings, PKI, PGlite data). */
  homeDir: string;
  /** The agent's data directory on a node (certificate, weight cache, replica state). */
  agentDataDir: string;
  /** The account both run as. */
  user: string;
  /** Where the console finds the API (the server's port on this machine). */
  apiUrl: string;
}

export interface UnitFile {
  name: string;
  text: string;
}

/** Hardening both units share: nothing to gain privileges, a read-only system, a private /tmp. */
const HARDENING = [
  "NoNewPrivileges=yes",
  "ProtectSystem=strict",
  "ProtectHome=yes",
  "PrivateTmp=yes",
  "ProtectKernelTunables=yes",
  "ProtectKernelModules=yes",
  "ProtectControlGroups=yes",
  "ProtectClock=yes",
  "ProtectHostname=yes",
  "RestrictSUIDSGID=yes",
  "RestrictRealtime=yes",
  "RestrictNamespaces=yes",
  "LockPersonality=yes",
  "SystemCallArchitectures=native",
  "CapabilityBoundingSet=",
  "AmbientCapabilities=",
  "UMask=0077",
];

function unit(description: string, service: string[], after: string[]): string {
  return [
    "# Written by `llmgw server init`; install with",
    "#   sudo cp <this file> /etc/systemd/system/ && sudo systemctl daemon-reload",
    "[Unit]",
    `Description=${description}`,
    `After=${after.join(" ")}`,
    "Wants=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    ...service,
    // 75 is the upgrade's "start me again"; it is not a failure in the journal.
    "Restart=always",
    "RestartSec=2",
    "SuccessExitStatus=75",
    "TimeoutStopSec=30",
    "LimitNOFILE=65536",
    ...HARDENING,
    "",
    "[Install]",
    "WantedBy=multi-user.target",
    "",
  ].join("\n");
}

export function systemdUnits(options: UnitOptions): UnitFile[] {
  const bin = `${options.installRoot}/current/bin/llmgw`;
  const account = [`User=${options.user}`, `Group=${options.user}`];
  return [
    {
      name: "llmgw-server.service",
      text: unit(
        "llmgw control plane",
        [
          ...account,
          `ExecStart=${bin} server --home ${options.homeDir}`,
          // The server stops its own children (none today) and closes the store on SIGTERM.
          "KillMode=mixed",
          `ReadWritePaths=${options.homeDir} ${options.installRoot}`,
          "PrivateDevices=yes",
        ],
        ["network-online.target"],
      ),
    },
    {
      name: "llmgw-web.service",
      text: unit(
        "llmgw console",
        [
          ...account,
          `ExecStart=${bin} web`,
          `Environment=LLMGW_API_URL=${options.apiUrl}`,
          "KillMode=mixed",
          "PrivateDevices=yes",
        ],
        ["network-online.target", "llmgw-server.service"],
      ),
    },
    {
      name: "llmgw-agent.service",
      text: unit(
        "llmgw node agent",
        [
          ...account,
          `ExecStart=${bin} agent --data-dir ${options.agentDataDir}`,
          // Engines are their own process groups and outlive an agent restart (they are adopted).
          "KillMode=process",
          `ReadWritePaths=${options.agentDataDir} ${options.installRoot}`,
          // The cards (/dev/nvidia*) must stay visible, so no PrivateDevices here.
        ],
        ["network-online.target"],
      ),
    },
  ];
}
