"use client";
// Your account → Desktop notifications: the browser is asked for permission only from the button
// here (never when a page loads), and the kinds chosen are kept per person and device.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { NOTIFY_KIND_NAMES, type NotifyKind } from "../../lib/notifications/attention-kinds";
import {
  askNotifyPermission,
  chooseNotifyKinds,
  chosenNotifyKinds,
  notifyPermission,
  type NotifyPermission,
} from "../../lib/notifications/notify-choice";

export function DesktopNotifications() {
  const { t } = useTranslation("account");
  const [permission, setPermission] = useState<NotifyPermission>("default");
  const [kinds, setKinds] = useState<NotifyKind[]>([]);
  // Read after mounting: the server-rendered HTML knows neither the permission nor the desk.
  useEffect(() => {
    setPermission(notifyPermission());
    setKinds(chosenNotifyKinds());
  }, []);

  const toggle = (kind: NotifyKind, isOn: boolean) => {
    const next = NOTIFY_KIND_NAMES.filter((name) => (name === kind ? isOn : kinds.includes(name)));
    chooseNotifyKinds(next);
    setKinds(next);
  };

  return (
    <div className="panel" data-testid="desktop-notifications">
      <h2>{t("notifications.title")}</h2>
      <p className="muted">{t("notifications.body")}</p>
      <p data-testid="notifications-permission" data-permission={permission}>
        {t(`notifications.permission.${permission}`)}
      </p>
      {permission === "default" ? (
        <button
          type="button"
          className="control"
          data-testid="notifications-allow"
          onClick={() => void askNotifyPermission().then(setPermission)}
        >
          {t("notifications.allow")}
        </button>
      ) : null}
      {permission === "unsupported" ? null : (
        <fieldset className="notify-kinds">
          <legend>{t("notifications.kindsLegend")}</legend>
          {NOTIFY_KIND_NAMES.map((kind) => (
            <label className="checkbox" key={kind}>
              <input
                type="checkbox"
                data-testid={`notify-kind-${kind}`}
                checked={kinds.includes(kind)}
                onChange={(event) => toggle(kind, event.target.checked)}
              />
              {t(`notifications.kinds.${kind}`)}
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
