"use client";
// Ctrl/Cmd-K: type to jump to any page, node or model. Nodes and models come from the same query
// cache the pages fill (fetched once when the palette opens if no page has them yet). While the
// browser offers to install the console, "Install llmgw" is here too. Shift+Enter opens the chosen
// page, node or model in a window of its own.
import { useQuery } from "@tanstack/react-query";
import { Command } from "cmdk";
import { useTranslation } from "react-i18next";
import type { KeyboardEvent } from "react";
import { useInstallOffer } from "../../hooks/use-install-offer";
import { openInNewWindow } from "../../lib/desk/new-window";
import { acceptInstallOffer } from "../../lib/pwa/install-prompt";
import { useTRPC } from "../../trpc/react";
import { NAV_PAGES } from "./sidebar";

interface CommandPaletteProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  goTo(path: string): void;
}

/** The path of the item cmdk has selected, when it is a place (not "Install llmgw"). */
function selectedPath(palette: HTMLElement): string | null {
  return (
    palette.querySelector<HTMLElement>('[cmdk-item][data-selected="true"]')?.dataset.windowPath ??
    null
  );
}

export function CommandPalette({ open, onOpenChange, goTo }: CommandPaletteProps) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const nodes = useQuery(
    trpc.nodes.summary.queryOptions(undefined, { enabled: open, staleTime: 5000 }),
  );
  const models = useQuery(
    trpc.models.list.queryOptions(undefined, { enabled: open, staleTime: 5000 }),
  );
  const canInstall = useInstallOffer();
  const jump = (path: string) => {
    onOpenChange(false);
    goTo(path);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== "Enter" || !event.shiftKey) return;
    const path = selectedPath(event.currentTarget);
    if (path === null) return;
    // Handled here: cmdk leaves a prevented Enter alone, so this window stays where it is.
    event.preventDefault();
    onOpenChange(false);
    openInNewWindow(path);
  };
  return (
    <Command.Dialog
      open={open}
      onOpenChange={onOpenChange}
      onKeyDown={onKeyDown}
      label={t("palette.title")}
      overlayClassName="overlay palette-overlay"
      contentClassName="palette"
      loop
    >
      <Command.Input
        className="palette-input"
        placeholder={t("palette.placeholder")}
        data-testid="palette-input"
      />
      <Command.List className="palette-list" data-testid="palette-list">
        <Command.Empty className="palette-empty">{t("palette.empty")}</Command.Empty>
        {canInstall ? (
          <Command.Group heading={t("desktop.application")}>
            <Command.Item
              value={`install ${t("desktop.install")}`}
              onSelect={() => {
                onOpenChange(false);
                void acceptInstallOffer();
              }}
              data-testid="palette-install"
            >
              {t("desktop.install")}
            </Command.Item>
          </Command.Group>
        ) : null}
        <Command.Group heading={t("palette.pages")}>
          {NAV_PAGES.map((page) => (
            <Command.Item
              key={page.href}
              value={`page ${t(page.label)} ${page.href}`}
              onSelect={() => jump(page.href)}
              data-testid="palette-item"
              data-path={page.href}
              data-window-path={page.href}
            >
              {t(page.label)}
            </Command.Item>
          ))}
        </Command.Group>
        <Command.Group heading={t("palette.nodes")}>
          {(nodes.data ?? []).map((node) => (
            <Command.Item
              key={node.id}
              value={`node ${node.name} ${node.id}`}
              onSelect={() => jump(`/nodes/${encodeURIComponent(node.id)}`)}
              data-testid="palette-item"
              data-path={`/nodes/${node.id}`}
              data-window-path={`/nodes/${encodeURIComponent(node.id)}`}
            >
              {node.name}
            </Command.Item>
          ))}
        </Command.Group>
        <Command.Group heading={t("palette.models")}>
          {(models.data ?? []).map((model) => (
            <Command.Item
              key={model.name}
              value={`model ${model.name}`}
              onSelect={() => jump(`/replicas?model=${encodeURIComponent(model.name)}`)}
              data-testid="palette-item"
              data-path={`/replicas?model=${model.name}`}
              data-window-path={`/replicas?model=${encodeURIComponent(model.name)}`}
            >
              {model.name}
            </Command.Item>
          ))}
        </Command.Group>
      </Command.List>
    </Command.Dialog>
  );
}
