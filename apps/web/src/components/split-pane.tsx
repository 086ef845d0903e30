"use client";
// Two panes side by side with a draggable divider; the split is remembered per `id` in
// localStorage on the person's desk, so the console keeps the layout each person chose on this
// device across reloads.
import type { ReactNode } from "react";
import { Group, Panel, Separator, useDefaultLayout } from "react-resizable-panels";
import { useTranslation } from "react-i18next";
import { deskStringStore } from "../lib/desk/desk-storage";

const storage = deskStringStore();

interface SplitPaneProps {
  id: string;
  main: ReactNode;
  side: ReactNode;
  /** The side pane's share when nothing is remembered, in percent. */
  sideDefaultPercent?: number;
  sideLabel: string;
}

export function SplitPane({ id, main, side, sideDefaultPercent = 28, sideLabel }: SplitPaneProps) {
  const { t } = useTranslation();
  const { defaultLayout, onLayoutChanged } = useDefaultLayout({
    id: `split.${id}`,
    storage,
  });
  return (
    <Group
      id={`split-${id}`}
      orientation="horizontal"
      className="split"
      defaultLayout={defaultLayout}
      onLayoutChanged={onLayoutChanged}
    >
      <Panel id="main" minSize="30%" className="split-pane">
        {main}
      </Panel>
      <Separator
        className="split-handle"
        data-testid={`split-${id}-handle`}
        aria-label={t("splitter")}
      />
      <Panel
        id="side"
        defaultSize={`${sideDefaultPercent}%`}
        minSize="15%"
        maxSize="60%"
        className="split-pane"
      >
        <aside className="split-side" aria-label={sideLabel}>
          {side}
        </aside>
      </Panel>
    </Group>
  );
}
