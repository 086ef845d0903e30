import { describe, expect, it } from "vitest";
import {
  ABSENT,
  formatBytes,
  formatBytesPair,
  formatCelsius,
  formatDateTime,
  formatNumber,
  formatByteRate,
  formatPercent,
  formatRelativeTime,
  formatSeconds,
  formatWatts,
  upperForDisplay,
} from "./format";

const GIB = 1024 ** 3;
const H100_MEMORY_BYTES = 81_559 * 1024 ** 2;

describe("formatBytes", () => {
  it("uses the locale's decimal separator", () => {
    expect(formatBytes(H100_MEMORY_BYTES, "en")).toBe("79.6 GiB");
    expect(formatBytes(H100_MEMORY_BYTES, "tr")).toBe("79,6 GiB");
  });

  it("groups thousands by locale and switches to TiB only for large disks", () => {
    expect(formatBytes(2048 * GIB, "en")).toBe("2,048.0 GiB");
    expect(formatBytes(2048 * GIB, "tr")).toBe("2.048,0 GiB");
    expect(formatBytes(15 * 1024 * GIB, "tr")).toBe("15,0 TiB");
  });

  it("drops to MiB below one GiB and keeps zero in GiB", () => {
    expect(formatBytes(512 * 1024 ** 2, "en")).toBe("512 MiB");
    expect(formatBytes(0, "en")).toBe("0.0 GiB");
  });

  it("renders absent values as an em dash, never 0", () => {
    expect(formatBytes(null, "en")).toBe(ABSENT);
    expect(formatBytesPair(null, 80 * GIB, "tr")).toBe("— / 80,0 GiB");
    expect(formatBytesPair(12 * GIB, null, "en")).toBe("12.0 GiB / —");
  });

  it("writes a pair in the total's unit, once", () => {
    // A 7.5 TiB disk with 4.5 TiB free: one unit, so the nodes table fits at 1440 px.
    expect(formatBytesPair(4608 * GIB, 7680 * GIB, "en")).toBe("4.5 / 7.5 TiB");
    expect(formatBytesPair(4608 * GIB, 7680 * GIB, "tr")).toBe("4,5 / 7,5 TiB");
    // Used below a GiB still reads in the total's GiB rather than switching to MiB.
    expect(formatBytesPair(512 * 1024 ** 2, 80 * GIB, "en")).toBe("0.5 / 80.0 GiB");
    expect(formatBytesPair(100 * 1024 ** 2, 512 * 1024 ** 2, "en")).toBe("100 / 512 MiB");
  });
});

describe("formatByteRate", () => {
  it("picks kB/s, MB/s or GB/s and writes the unit the language's way", () => {
    expect(formatByteRate(500, "en")).toBe("0.5 kB/s");
    expect(formatByteRate(2_500_000, "en")).toBe("2.5 MB/s");
    expect(formatByteRate(12_500_000_000, "tr")).toBe("12,5 GB/sn");
  });

  it("keeps a real zero and dashes a missing value", () => {
    expect(formatByteRate(0, "en")).toBe("0 kB/s");
    expect(formatByteRate(null, "en")).toBe(ABSENT);
  });
});

describe("formatSeconds", () => {
  it("writes seconds with one decimal in the language's way", () => {
    expect(formatSeconds(2.54, "en")).toBe("2.5 sec");
    expect(formatSeconds(2.54, "tr")).toBe("2,5 sn.");
    expect(formatSeconds(null, "tr")).toBe(ABSENT);
  });
});

describe("formatPercent", () => {
  it("puts the sign where the language does", () => {
    expect(formatPercent(45, "en")).toBe("45%");
    expect(formatPercent(45, "tr")).toBe("%45");
  });

  it("keeps a real zero and dashes a missing value", () => {
    expect(formatPercent(0, "tr")).toBe("%0");
    expect(formatPercent(null, "tr")).toBe(ABSENT);
  });
});

describe("units", () => {
  it("formats temperature, power and plain numbers", () => {
    expect(formatCelsius(61.4, "tr")).toBe("61°C");
    expect(formatWatts(1234.4, "tr")).toBe("1.234 W");
    expect(formatWatts(1234.4, "en")).toBe("1,234 W");
    expect(formatNumber(3.5, "tr", 1)).toBe("3,5");
    expect(formatCelsius(null, "en")).toBe(ABSENT);
    expect(formatWatts(undefined, "en")).toBe(ABSENT);
  });
});

describe("dates", () => {
  const iso = "2026-03-01T12:00:00Z";
  const nowMs = Date.parse(iso);

  it("formats absolute times per language", () => {
    expect(formatDateTime(iso, "en", "UTC")).toBe("Mar 1, 2026, 12:00:00 PM");
    expect(formatDateTime(iso, "tr", "UTC")).toBe("1 Mar 2026 12:00:00");
    expect(formatDateTime("not a date", "en", "UTC")).toBe(ABSENT);
  });

  it("says how long ago in the largest whole unit", () => {
    expect(formatRelativeTime("2026-03-01T11:59:55Z", nowMs, "en")).toBe("5 seconds ago");
    expect(formatRelativeTime("2026-03-01T11:59:55Z", nowMs, "tr")).toBe("5 saniye önce");
    expect(formatRelativeTime("2026-03-01T11:57:00Z", nowMs, "tr")).toBe("3 dakika önce");
    expect(formatRelativeTime("2026-02-27T12:00:00Z", nowMs, "en")).toBe("2 days ago");
    expect(formatRelativeTime(iso, nowMs, "en")).toBe("now");
    expect(formatRelativeTime(null, nowMs, "en")).toBe(ABSENT);
  });
});

describe("upperForDisplay", () => {
  it("uppercases with the language's rules", () => {
    expect(upperForDisplay("simüle", "tr")).toBe("SİMÜLE");
    expect(upperForDisplay("simulated", "en")).toBe("SIMULATED");
    expect(upperForDisplay("bilgi", "tr")).toBe("BİLGİ");
    expect(upperForDisplay("hazır", "tr")).toBe("HAZIR");
  });
});

describe("kept formatters", () => {
  it("keep each language's and each option's format apart when asked in turns", () => {
    const turns = [
      formatNumber(1234.5, "en", 1),
      formatNumber(1234.5, "tr", 1),
      formatNumber(1234.5, "en", 0),
      formatNumber(1234.5, "en", 1),
      formatSeconds(2.5, "tr"),
      formatSeconds(2.5, "en"),
      formatDateTime("2026-01-02T03:04:05Z", "en", "UTC"),
      formatDateTime("2026-01-02T03:04:05Z", "en", "Europe/Istanbul"),
    ];
    expect(turns.slice(0, 4)).toEqual(["1,234.5", "1.234,5", "1,235", "1,234.5"]);
    expect(turns[4]).not.toBe(turns[5]);
    expect(turns[6]).toContain("3:04:05");
    expect(turns[7]).toContain("6:04:05");
  });
});
