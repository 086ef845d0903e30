import { must } from "@llmgw/domain";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { gradePcieLink, parseLspciLinks } from "./lspci";

// A real capture (see fixtures/README.md): an NVIDIA L20 at Gen4 x16 of Gen4 x16.
const L20 = readFileSync(new URL("./fixtures/lspci-l20.txt", import.meta.url), "utf8");

// A host bridge and an HDMI audio function beside the card: neither is a GPU to grade.
const NEIGHBOURS = `00:01.1 PCI bridge: Advanced Micro Devices, Inc. [AMD] Starship/Matisse GPP Bridge
\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM L1
\t\tLnkSta:\tSpeed 2.5GT/s, Width x4

0000:2a:00.1 Audio device: NVIDIA Corporation AD102 High Definition Audio Controller (rev a1)
\t\tLnkCap:\tPort #0, Speed 16GT/s, Width x16, ASPM not supported
\t\tLnkSta:\tSpeed 16GT/s, Width x8
`;

describe("parseLspciLinks", () => {
  it("reads the card's LnkCap and LnkSta from a real capture", () => {
    expect(parseLspciLinks(L20)).toEqual([
      {
        address: "0000:2a:00.0",
        name: "NVIDIA Corporation AD102GL [L20]",
        cap: { gen: 4, width: 16 },
        sta: { gen: 4, width: 16 },
      },
    ]);
  });

  it("leaves out bridges and the card's audio function", () => {
    const links = parseLspciLinks(`${NEIGHBOURS}\n${L20}`);
    expect(links.map((link) => link.address)).toEqual(["0000:2a:00.0"]);
  });

  it("reads a card lspci shows without its capabilities (not root) as unknown", () => {
    const heading = must(L20.split("\n")[0], "the heading");
    expect(parseLspciLinks(`${heading}\n\tSubsystem: NVIDIA\n`)[0]).toMatchObject({
      cap: null,
      sta: null,
    });
  });
});

describe("gradePcieLink", () => {
  it("passes the L20 at all its lanes", () => {
    const [link] = parseLspciLinks(L20);
    const check = gradePcieLink(must(link, "the card"));
    expect(check.status).toBe("pass");
    expect(check.summary).toMatch(/x16 of x16 lanes, Gen4 capable \(31\.5 GB\/s\)/);
  });

  it("passes an idle card whose speed dropped: the generation in LnkSta is not graded", () => {
    // The capture edited: LnkSta at 2.5GT/s, as an idle card reads.
    const idle = L20.replace("LnkSta:\tSpeed 16GT/s", "LnkSta:\tSpeed 2.5GT/s (downgraded)");
    const check = gradePcieLink(must(parseLspciLinks(idle)[0], "the card"));
    expect(check.status).toBe("pass");
    expect(check.summary).toMatch(/now Gen1/);
  });

  it("warns of a card on fewer lanes than it has, with the GB/s and the lspci command", () => {
    // The capture edited: LnkSta x8, as a card in a slot wired for 8 lanes reads.
    const narrow = L20.replace(
      "LnkSta:\tSpeed 16GT/s, Width x16",
      "LnkSta:\tSpeed 16GT/s, Width x8 (downgraded)",
    );
    const check = gradePcieLink(must(parseLspciLinks(narrow)[0], "the card"));
    expect(check).toMatchObject({ id: "pcie.0000:2a:00.0", status: "warn" });
    expect(check.summary).toMatch(
      /LnkSta x8 of LnkCap x16 lanes; it carries 15\.8 GB\/s of 31\.5 GB\/s/,
    );
    expect(check.fix).toMatch(/lspci -vv -s 0000:2a:00\.0/);
  });

  it("warns when lspci hides the link, saying to run as root", () => {
    const check = gradePcieLink({ address: "0000:2a:00.0", name: "L20", cap: null, sta: null });
    expect(check.status).toBe("warn");
    expect(check.fix).toMatch(/sudo llmgw doctor/);
  });
});
