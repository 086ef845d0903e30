import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { barredAddress, checkOutboundUrl, embeddedIpv4 } from "./outbound-guard";

const why = (url: string, allowPrivate = false) => {
  const check = checkOutboundUrl(url, allowPrivate);
  return check.ok ? null : check.why;
};

describe("checkOutboundUrl", () => {
  it("lets public http and https URLs through", () => {
    expect(why("https://api.openai.com/v1")).toBeNull();
    expect(why("http://8.8.8.8:8000/v1")).toBeNull();
    expect(why("https://[2606:4700::1111]/v1")).toBeNull();
  });

  it("refuses loopback, private, link-local and metadata addresses, naming the URL and why", () => {
    expect(why("http://127.0.0.1:9000/v1")).toBe(
      "http://127.0.0.1:9000/v1 is refused: 127.0.0.1 is a loopback address",
    );
    expect(why("http://10.1.2.3/v1")).toMatch(/10\.1\.2\.3 is a private address/);
    expect(why("http://192.168.0.7/v1")).toMatch(/private address/);
    expect(why("http://[::1]:8000/v1")).toMatch(/loopback address/);
    expect(why("http://[fd12::1]/v1")).toMatch(/unique local/);
    expect(why("http://169.254.10.1/")).toMatch(/link-local/);
    expect(why("http://169.254.169.254/latest/meta-data")).toMatch(/cloud metadata address/);
    expect(why("http://[fd00:ec2::254]/")).toMatch(/cloud metadata address/);
    expect(why("http://metadata.google.internal/computeMetadata/v1")).toMatch(
      /metadata\.google\.internal is a cloud metadata service/,
    );
    expect(why("http://localhost:8000/v1")).toMatch(/loopback or local-network name/);
    expect(why("http://[::ffff:127.0.0.1]/v1")).toMatch(/loopback address/);
    expect(why("http://0.0.0.0/v1")).toMatch(/unspecified/);
  });

  // Each form an attacker used to slip loopback or the metadata service past the old guards.
  it.each([
    ["http://[::127.0.0.1]/v1", /\[::7f00:1\] is an IPv4-compatible address hiding 127\.0\.0\.1/],
    ["http://[::169.254.169.254]/v1", /IPv4-compatible address hiding 169\.254\.169\.254/],
    ["http://[::ffff:0:127.0.0.1]/v1", /IPv4-translated address hiding 127\.0\.0\.1/],
    ["http://[64:ff9b::127.0.0.1]/v1", /NAT64\) address hiding 127\.0\.0\.1/],
    ["http://[64:ff9b::169.254.169.254]/v1", /hiding 169\.254\.169\.254, a cloud metadata/],
    ["http://[2002:7f00:1::]/v1", /6to4 address hiding 127\.0\.0\.1/],
    [
      "http://[::ffff:8.8.8.8]/v1",
      /IPv4-mapped address hiding 8\.8\.8\.8; write 8\.8\.8\.8 itself/,
    ],
    ["http://192.0.2.10/v1", /TEST-NET/],
    ["http://198.51.100.7/v1", /TEST-NET/],
    ["http://203.0.113.9/v1", /TEST-NET/],
    ["http://[2001:db8::1]/v1", /reserved or documentation/],
    ["http://100.64.0.1/v1", /carrier-grade NAT/],
    ["http://2130706433/v1", /127\.0\.0\.1 is a loopback address/],
    ["http://0x7f.1/v1", /127\.0\.0\.1 is a loopback address/],
    ["http://[fe80::1]/v1", /link-local/],
    ["http://[fec0::1]/v1", /site-local/],
    ["http://[::2]/v1", /not a global unicast address/],
    ["http://224.0.0.1/v1", /multicast/],
    ["http://db.internal/v1", /local-network name/],
    ["http://printer.local/v1", /local-network name/],
  ])("refuses the disguised or non-global %s", (url, expected) => {
    expect(why(url)).toMatch(expected);
  });

  it("refuses credentials in the URL and other schemes, without repeating the password", () => {
    expect(why("https://ada:secret@api.example.com/v1")).toMatch(
      /^https:\/\/api\.example\.com\/v1 is refused: it carries a user name or password/,
    );
    expect(why("https://ada:secret@api.example.com/v1")).not.toContain("secret");
    expect(why("file:///etc/passwd")).toMatch(/only http and https/);
    expect(why("not a url")).toMatch(/is not a URL/);
    expect(checkOutboundUrl("https://ada:pw@a.example/", true)).toMatchObject({
      kind: "credentials",
    });
  });

  it("allows private and loopback upstreams when configured, but never metadata services", () => {
    expect(why("http://127.0.0.1:9000/v1", true)).toBeNull();
    expect(why("http://localhost:9000/v1", true)).toBeNull();
    expect(why("http://10.0.0.5/v1", true)).toBeNull();
    expect(why("http://[::ffff:127.0.0.1]/v1", true)).toBeNull();
    expect(why("http://169.254.169.254/", true)).toMatch(/metadata/);
    expect(why("http://metadata.google.internal/", true)).toMatch(/metadata/);
    expect(why("https://ada:pw@10.0.0.5/v1", true)).toMatch(/user name or password/);
  });

  it.each([
    "http://[::169.254.169.254]/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:0:169.254.169.254]/",
    "http://[64:ff9b::169.254.169.254]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://0.0.0.0/",
    "http://[::]/",
    "http://255.255.255.255/",
  ])("refuses %s even where private upstreams are allowed", (url) => {
    expect(why(url, true)).toMatch(/metadata|unspecified|broadcast/);
  });
});

describe("barredAddress", () => {
  it("reads resolved addresses, as connect time sees them", () => {
    expect(barredAddress("93.184.216.34", false)).toBeNull();
    expect(barredAddress("127.0.0.53", false)).toBe("a loopback address");
    expect(barredAddress("fe80::1", false)).toBe("a link-local address");
    expect(barredAddress("::7f00:1", false)).toMatch(/IPv4-compatible address hiding 127\.0\.0\.1/);
    expect(barredAddress("169.254.169.254", true)).toBe("a cloud metadata address");
    expect(barredAddress("10.0.0.1", true)).toBeNull();
  });
});

describe("embeddedIpv4", () => {
  it("finds the IPv4 address inside each IPv6 form that carries one", () => {
    const inside = (text: string) => embeddedIpv4(ipaddr.IPv6.parse(text))?.ipv4.toString() ?? null;
    expect(inside("::ffff:1.2.3.4")).toBe("1.2.3.4");
    expect(inside("::1.2.3.4")).toBe("1.2.3.4");
    expect(inside("::ffff:0:1.2.3.4")).toBe("1.2.3.4");
    expect(inside("64:ff9b::1.2.3.4")).toBe("1.2.3.4");
    expect(inside("2002:102:304::1")).toBe("1.2.3.4");
    expect(inside("2001:0:4136:e378:8000:63bf:fefd:fcfb")).toBe("1.2.3.4");
    expect(inside("::1")).toBeNull();
    expect(inside("2606:4700::1111")).toBeNull();
  });
});
