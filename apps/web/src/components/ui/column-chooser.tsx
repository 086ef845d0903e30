"use client";
// "Columns": a checkbox per column a person may hide, above a table. What they hide is kept on
// their desk (useHiddenColumns), so the table comes back as they left it on this device.
import { useTranslation } from "react-i18next";

export interface ColumnChoice {
  hiddenIds: readonly string[];
  onToggle(id: string): void;
}

export function ColumnChooser({
  columns,
  choice,
}: {
  columns: readonly { id: string; header: string; isFixed?: boolean }[];
  choice: ColumnChoice;
}) {
  const { t } = useTranslation();
  return (
    <details className="column-chooser" data-testid="column-chooser">
      <summary className="control control-small">{t("columns.choose")}</summary>
      <fieldset className="column-chooser-list">
        <legend className="muted">{t("columns.legend")}</legend>
        {columns
          .filter((column) => !column.isFixed && column.header !== "")
          .map((column) => (
            <label key={column.id}>
              <input
                type="checkbox"
                checked={!choice.hiddenIds.includes(column.id)}
                onChange={() => choice.onToggle(column.id)}
                data-testid={`column-toggle-${column.id}`}
              />
              {column.header}
            </label>
          ))}
      </fieldset>
    </details>
  );
}
