"use client";
// The engines a node's agent installs itself (llama.cpp): each one's state, version and message,
// and for a failed one the last lines of its build log, so the reason is on the node's page.
import type { NodeView } from "@llmgw/api";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "../../lib/format";

type EngineInstallView = NodeView["engineInstalls"][number];

/** The colours the models page uses for the same meanings: ready, in progress, stopped by a fault. */
const BADGE_BY_STATE: Record<EngineInstallView["state"], string> = {
  ready: "badge badge-phase-ready",
  installing: "badge badge-phase-starting",
  failed: "badge badge-model-parked",
};

function InstallRow({ install }: { install: EngineInstallView }) {
  const { t, i18n } = useTranslation("nodes");
  return (
    <li data-testid={`engine-install-${install.engine}`} data-state={install.state}>
      <strong>{install.engine}</strong> <span className="mono">{install.version}</span>{" "}
      <span className={BADGE_BY_STATE[install.state]}>{t(`installs.state.${install.state}`)}</span>{" "}
      <span className="muted">
        {t("installs.changed", { when: formatDateTime(install.changedAt, i18n.language) })}
      </span>
      <p>{install.message}</p>
      {install.state === "failed" && install.logTail.length > 0 ? (
        <details open>
          <summary>{t("installs.lastLines", { count: install.logTail.length })}</summary>
          <pre className="mono">{install.logTail.join("\n")}</pre>
        </details>
      ) : null}
    </li>
  );
}

export function EngineInstalls({ node }: { node: NodeView }) {
  const { t } = useTranslation("nodes");
  if (node.engineInstalls.length === 0) return null;
  return (
    <div className="panel" data-testid="node-engine-installs">
      <h2>{t("installs.title")}</h2>
      <p className="muted">{t("installs.hint")}</p>
      <ul>
        {node.engineInstalls.map((install) => (
          <InstallRow key={install.engine} install={install} />
        ))}
      </ul>
    </div>
  );
}
