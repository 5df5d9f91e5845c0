/**
 * Which IP addresses an image download may connect to: public unicast only.
 * Loopback, private, link-local, carrier-grade NAT, multicast, documentation
 * and reserved ranges are refused, in IPv4 and IPv6 (IPv4-mapped, NAT64 and
 * 6to4 addresses are judged by the IPv4 address inside them).
 */
import { BlockList, isIP } from "node:net";

const V4_BLOCKED: readonly [string, number, string][] = [
  ["0.0.0.0", 8, "this-network (0.0.0.0/8)"],
  ["10.0.0.0", 8, "private (10.0.0.0/8)"],
  ["100.64.0.0", 10, "carrier-grade NAT (100.64.0.0/10)"],
  ["127.0.0.0", 8, "loopback (127.0.0.0/8)"],
  ["169.254.0.0", 16, "link-local (169.254.0.0/16)"],
  ["172.16.0.0", 12, "private (172.16.0.0/12)"],
  ["192.0.0.0", 24, "IETF protocol assignments (192.0.0.0/24)"],
  ["192.0.2.0", 24, "documentation (192.0.2.0/24)"],
  ["192.88.99.0", 24, "6to4 relay anycast (192.88.99.0/24)"],
  ["192.168.0.0", 16, "private (192.168.0.0/16)"],
  ["198.18.0.0", 15, "benchmarking (198.18.0.0/15)"],
  ["198.51.100.0", 24, "documentation (198.51.100.0/24)"],
  ["203.0.113.0", 24, "documentation (203.0.113.0/24)"],
  ["224.0.0.0", 4, "multicast (224.0.0.0/4)"],
  ["240.0.0.0", 4, "reserved (240.0.0.0/4)"],
];

const V6_BLOCKED: readonly [string, number, string][] = [
  ["::", 128, "unspecified (::)"],
  ["::1", 128, "loopback (::1)"],
  ["::", 96, "IPv4-compatible (::/96, deprecated)"],
  ["100::", 64, "discard-only (100::/64)"],
  ["2001::", 23, "IETF protocol assignments (2001::/23)"],
  ["2001:db8::", 32, "documentation (2001:db8::/32)"],
  ["fc00::", 7, "unique local (fc00::/7)"],
  ["fe80::", 10, "link-local (fe80::/10)"],
  ["fec0::", 10, "site-local (fec0::/10, deprecated)"],
  ["ff00::", 8, "multicast (ff00::/8)"],
];

function lists(entries: readonly [string, number, string][], type: "ipv4" | "ipv6"): [BlockList, string][] {
  return entries.map(([network, prefix, name]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return [list, name];
  });
}

const V4 = lists(V4_BLOCKED, "ipv4");
const V6 = lists(V6_BLOCKED, "ipv6");

function expandV6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split(".").map(Number);
    text = text.slice(0, dotted.index) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const a = head ? head.split(":") : [];
  const b = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const groups = tail === undefined ? a : [...a, ...new Array<string>(8 - a.length - b.length).fill("0"), ...b];
  if (groups.length !== 8) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96), NAT64 (64:ff9b::/96) or 6to4 (2002::/16) IPv6 address. */
export function embeddedIPv4(address: string): string | undefined {
  const g = expandV6(address);
  if (!g) return undefined;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4(g[6]!, g[7]!);
  if (g[0] === 0x2002) return v4(g[1]!, g[2]!);
  return undefined;
}

/**
 * Why an IP address is not a public unicast address, or undefined when it is.
 *
 * @example
 * refusedAddressReason("127.0.0.1")        // "loopback (127.0.0.0/8)"
 * refusedAddressReason("::ffff:10.0.0.1")  // "private (10.0.0.0/8), inside an IPv4-mapped IPv6 address"
 * refusedAddressReason("93.184.216.34")    // undefined
 */
export function refusedAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) {
    if (bare === "255.255.255.255") return "broadcast (255.255.255.255)";
    return V4.find(([list]) => list.check(bare, "ipv4"))?.[1];
  }
  if (family === 6) {
    const inner = embeddedIPv4(bare);
    if (inner !== undefined) {
      const reason = refusedAddressReason(inner);
      return reason === undefined ? undefined : `${reason}, inside an IPv4-mapped or translated IPv6 address`;
    }
    return V6.find(([list]) => list.check(bare, "ipv6"))?.[1];
  }
  return `not an IP address: ${address}`;
}
