/**
 * Which IP addresses an image download may connect to: public unicast only.
 * Loopback, private, link-local, carrier-grade NAT, multicast, documentation
 * and reserved ranges are refused, in IPv4 and IPv6 (IPv4-mapped,
 * IPv4-translated, NAT64 and 6to4 addresses are judged by the IPv4 address
 * inside them; Teredo tunnels are refused).
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
  ["2001::", 32, "Teredo (2001::/32), a tunnel to an IPv4 host"],
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

/** An IPv4 address carried inside an IPv6 one, and the name of the form that carries it. */
interface Embedded {
  ipv4: string;
  form: string;
}

function dottedQuad(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

function zeros(groups: readonly number[]): boolean {
  return groups.every((g) => g === 0);
}

/**
 * The IPv4 address inside an IPv6 address written as groups, if it has one:
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96, RFC 2765),
 * NAT64 with the well-known prefix (64:ff9b::/96) or the local-use one
 * (64:ff9b:1::/48, RFC 8215, its /96 form), 6to4 (2002::/16), and a Teredo
 * client's (2001::/32, stored inverted).
 */
function embedded(g: readonly number[]): Embedded | undefined {
  const last = dottedQuad(g[6]!, g[7]!);
  if (zeros(g.slice(0, 5)) && g[5] === 0xffff) return { ipv4: last, form: "an IPv4-mapped IPv6 address (::ffff:0:0/96)" };
  if (zeros(g.slice(0, 4)) && g[4] === 0xffff && g[5] === 0) return { ipv4: last, form: "an IPv4-translated IPv6 address (::ffff:0:0:0/96)" };
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(g.slice(2, 6))) return { ipv4: last, form: "a NAT64 address (64:ff9b::/96)" };
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1 && zeros(g.slice(3, 6))) return { ipv4: last, form: "a local-use NAT64 address (64:ff9b:1::/48)" };
  if (g[0] === 0x2002) return { ipv4: dottedQuad(g[1]!, g[2]!), form: "a 6to4 address (2002::/16)" };
  if (g[0] === 0x2001 && g[1] === 0) return { ipv4: dottedQuad(g[6]! ^ 0xffff, g[7]! ^ 0xffff), form: "a Teredo address (2001::/32)" };
  return undefined;
}

/** The IPv4 address inside an IPv4-mapped or -translated, NAT64, 6to4 or Teredo IPv6 address, or undefined. */
export function embeddedIPv4(address: string): string | undefined {
  const g = expandV6(address);
  return g ? embedded(g)?.ipv4 : undefined;
}

/**
 * Why an IPv6 address is not public unicast, or undefined when it is: by
 * the IPv4 address inside it when it carries one, else by its own range. A
 * local-use NAT64 address whose IPv4 address is not in its last 32 bits (a
 * prefix longer than /48 and shorter than /96) is refused, as the IPv4
 * address it reaches cannot be told.
 */
function refusedV6Reason(address: string): string | undefined {
  const g = expandV6(address);
  if (g && g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1 && !embedded(g)) {
    return "local-use NAT64 (64:ff9b:1::/48) with its IPv4 address outside the last 32 bits, which cannot be checked";
  }
  const inner = g ? embedded(g) : undefined;
  if (inner !== undefined) {
    const reason = refusedAddressReason(inner.ipv4);
    if (reason !== undefined) return `${reason}, inside ${inner.form}`;
  }
  return V6.find(([list]) => list.check(address, "ipv6"))?.[1];
}

/**
 * Why an IP address is not a public unicast address, or undefined when it is.
 *
 * @example
 * refusedAddressReason("127.0.0.1")        // "loopback (127.0.0.0/8)"
 * refusedAddressReason("::ffff:10.0.0.1")  // "private (10.0.0.0/8), inside an IPv4-mapped IPv6 address (::ffff:0:0/96)"
 * refusedAddressReason("93.184.216.34")    // undefined
 */
export function refusedAddressReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 4) {
    if (bare === "255.255.255.255") return "broadcast (255.255.255.255)";
    return V4.find(([list]) => list.check(bare, "ipv4"))?.[1];
  }
  if (family === 6) return refusedV6Reason(bare);
  return `not an IP address: ${address}`;
}
