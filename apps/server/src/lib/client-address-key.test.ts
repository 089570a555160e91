import { describe, expect, it } from "vitest";
import { clientAddressKey } from "./client-address-key.js";

describe("clientAddressKey (what the per-address caps, of connections and of live streams, count as one address)", () => {
  it("counts an IPv4 address as itself, also when written as IPv4-mapped IPv6", () => {
    expect(clientAddressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(clientAddressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("counts every IPv6 address of one /64 network as one", () => {
    const key = "2001:db8:0:12::/64";
    for (const ip of ["2001:db8:0:12::1", "2001:0db8:0000:0012:abcd:ef01:2345:6789", "2001:db8::12:0:0:0:9", "2001:DB8:0:12::1%eth0"]) {
      expect(clientAddressKey(ip), ip).toBe(key);
    }
    expect(clientAddressKey("2001:db8:0:13::1")).not.toBe(key);
    expect(clientAddressKey("::1")).toBe("0:0:0:0::/64");
    expect(clientAddressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });
});
