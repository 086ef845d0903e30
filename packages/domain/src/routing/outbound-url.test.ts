import { describe, expect, it } from "vitest";
import { barredAddress, checkOutboundUrl } from "./outbound-url";

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
    expect(why("http://localhost:8000/v1")).toMatch(/loopback name/);
    expect(why("http://[::ffff:127.0.0.1]/v1")).toMatch(/loopback address/);
    expect(why("http://0.0.0.0/v1")).toMatch(/unspecified/);
  });

  it("refuses credentials in the URL and other schemes", () => {
    expect(why("https://ada:secret@api.example.com/v1")).toMatch(
      /^https:\/\/api\.example\.com\/v1 is refused: it carries a user name or password/,
    );
    expect(why("https://ada:secret@api.example.com/v1")).not.toContain("secret");
    expect(why("file:///etc/passwd")).toMatch(/only http and https/);
    expect(why("not a url")).toMatch(/is not a URL/);
  });

  it("allows private and loopback upstreams when configured, but never metadata services", () => {
    expect(why("http://127.0.0.1:9000/v1", true)).toBeNull();
    expect(why("http://localhost:9000/v1", true)).toBeNull();
    expect(why("http://10.0.0.5/v1", true)).toBeNull();
    expect(why("http://169.254.169.254/", true)).toMatch(/metadata/);
    expect(why("http://metadata.google.internal/", true)).toMatch(/metadata/);
    expect(why("https://ada:pw@10.0.0.5/v1", true)).toMatch(/user name or password/);
  });
});

describe("barredAddress", () => {
  it("reads resolved addresses, as connect time sees them", () => {
    expect(barredAddress("93.184.216.34", false)).toBeNull();
    expect(barredAddress("127.0.0.53", false)).toBe("a loopback address");
    expect(barredAddress("fe80::1", false)).toBe("a link-local address");
    expect(barredAddress("169.254.169.254", true)).toBe("a cloud metadata address");
    expect(barredAddress("10.0.0.1", true)).toBeNull();
  });
});
