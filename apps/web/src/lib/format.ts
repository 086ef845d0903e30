// Locale-aware formatting for everything the console displays. Every helper takes the language
// explicitly (the UI passes i18next's current one) so the same value reads naturally in English
// and Turkish, and renders an em dash for values the agent did not report rather than a fake 0.

export const ABSENT = "—";

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;
const TIB = GIB * 1024;

// Intl formatters are kept, one per language and options: building one costs a quarter of a
// millisecond (a date-time one over a millisecond), so a table of 2,000 nodes or a page of events
// that built one per cell kept the main thread busy after its data had arrived (P9).
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

function kept<T>(formats: Map<string, T>, key: string, create: () => T): T {
  const known = formats.get(key);
  if (known !== undefined) return known;
  const made = create();
  formats.set(key, made);
  return made;
}

function intlNumber(lang: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return kept(
    numberFormats,
    `${lang}\0${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(lang, options),
  );
}

function numberFormat(lang: string, fractionDigits: number): Intl.NumberFormat {
  return intlNumber(lang, {
    minimumFractionDigits: fractionDigits,
    maximumFractionDigits: fractionDigits,
  });
}

export function formatNumber(
  value: number | null | undefined,
  lang: string,
  fractionDigits = 0,
): string {
  if (value == null || !Number.isFinite(value)) return ABSENT;
  return numberFormat(lang, fractionDigits).format(value);
}

/**
 * Binary sizes. GiB is the unit operators compare cards and hosts in; smaller values drop to MiB
 * and disks of several TiB go up a unit so the column stays readable.
 */
export function formatBytes(bytes: number | null | undefined, lang: string): string {
  if (bytes == null || !Number.isFinite(bytes)) return ABSENT;
  if (bytes >= 10 * TIB) return `${numberFormat(lang, 1).format(bytes / TIB)} TiB`;
  if (bytes >= GIB || bytes === 0) return `${numberFormat(lang, 1).format(bytes / GIB)} GiB`;
  return `${numberFormat(lang, 0).format(bytes / MIB)} MiB`;
}

/**
 * `used / total unit`, one unit chosen from the total and written once, so both sides compare at a
 * glance and the column stays narrow (`4,608.0 GiB / 7,680.0 GiB` reads `4.5 / 7.5 TiB`).
 */
export function formatBytesPair(
  used: number | null | undefined,
  total: number | null | undefined,
  lang: string,
): string {
  if (total == null || !Number.isFinite(total)) return `${formatBytes(used, lang)} / ${ABSENT}`;
  const [unit, size, digits] =
    total >= TIB
      ? ["TiB", TIB, 1]
      : total >= GIB || total === 0
        ? ["GiB", GIB, 1]
        : ["MiB", MIB, 0];
  const side = (bytes: number | null | undefined) =>
    bytes == null || !Number.isFinite(bytes)
      ? ABSENT
      : numberFormat(lang, digits).format(bytes / size);
  return `${side(used)} / ${side(total)} ${unit}`;
}

/**
 * Network rates in decimal units, as links are rated (a 100 Gb/s link moves 12.5 GB/s): kB/s
 * below a megabyte a second, then MB/s, then GB/s. Intl writes the unit (`MB/sn` in Turkish).
 */
export function formatByteRate(bytesPerSecond: number | null | undefined, lang: string): string {
  if (bytesPerSecond == null || !Number.isFinite(bytesPerSecond)) return ABSENT;
  const [unit, size] =
    bytesPerSecond >= 1e9
      ? ["gigabyte-per-second", 1e9]
      : bytesPerSecond >= 1e6
        ? ["megabyte-per-second", 1e6]
        : ["kilobyte-per-second", 1e3];
  return intlNumber(lang, { style: "unit", unit, maximumFractionDigits: 1 }).format(
    bytesPerSecond / size,
  );
}

/** A short duration in seconds, one decimal (`2.5 sec`, Turkish `2,5 sn.`). */
export function formatSeconds(seconds: number | null | undefined, lang: string): string {
  if (seconds == null || !Number.isFinite(seconds)) return ABSENT;
  return intlNumber(lang, {
    style: "unit",
    unit: "second",
    maximumFractionDigits: 1,
  }).format(seconds);
}

/** Percent from a 0–100 value. Intl places the sign by locale: Turkish writes `%45`. */
export function formatPercent(percent: number | null | undefined, lang: string): string {
  if (percent == null || !Number.isFinite(percent)) return ABSENT;
  return intlNumber(lang, { style: "percent", maximumFractionDigits: 0 }).format(percent / 100);
}

export function formatCelsius(celsius: number | null | undefined, lang: string): string {
  if (celsius == null || !Number.isFinite(celsius)) return ABSENT;
  return intlNumber(lang, {
    style: "unit",
    unit: "celsius",
    maximumFractionDigits: 0,
  }).format(celsius);
}

// Intl has no sanctioned "watt" unit, so the symbol is appended; it is the same in both languages.
export function formatWatts(watts: number | null | undefined, lang: string): string {
  if (watts == null || !Number.isFinite(watts)) return ABSENT;
  return `${formatNumber(watts, lang, 0)} W`;
}

/** The browser's own time zone by default; tests pass one so they do not depend on the machine. */
export function formatDateTime(
  iso: string | null | undefined,
  lang: string,
  timeZone?: string,
): string {
  if (!iso) return ABSENT;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return ABSENT;
  const format = kept(
    dateTimeFormats,
    `${lang}\0${timeZone ?? ""}`,
    () => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "medium", timeZone }),
  );
  return format.format(date);
}

const RELATIVE_STEPS: Array<{ unit: Intl.RelativeTimeFormatUnit; seconds: number }> = [
  { unit: "day", seconds: 86_400 },
  { unit: "hour", seconds: 3_600 },
  { unit: "minute", seconds: 60 },
  { unit: "second", seconds: 1 },
];

/** "5 seconds ago" / "5 saniye önce"; the largest whole unit wins, like an operator would say it. */
export function formatRelativeTime(
  iso: string | null | undefined,
  nowMs: number,
  lang: string,
): string {
  if (!iso) return ABSENT;
  const thenMs = new Date(iso).getTime();
  if (Number.isNaN(thenMs)) return ABSENT;
  const deltaSeconds = Math.round((thenMs - nowMs) / 1000);
  const format = kept(
    relativeFormats,
    lang,
    () => new Intl.RelativeTimeFormat(lang, { numeric: "auto" }),
  );
  for (const step of RELATIVE_STEPS) {
    if (Math.abs(deltaSeconds) >= step.seconds) {
      return format.format(Math.trunc(deltaSeconds / step.seconds), step.unit);
    }
  }
  return format.format(0, "second");
}

/** Display casing that respects the language: Turkish uppercases i to İ, not I. */
export function upperForDisplay(text: string, lang: string): string {
  return text.toLocaleUpperCase(lang);
}
