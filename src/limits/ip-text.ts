/**
 * A quick, strict reading of the IP address texts that sockets and proxies write:
 * dotted-quad IPv4 and colon-hex IPv6 (with `::`). ipaddr.js accepts every legacy form and
 * costs 10–20 µs per address, which on the widget's hot path is more than the rest of the
 * per-client limit together; this reads the common forms in well under a microsecond and
 * answers null for anything else (embedded dotted IPv4, zone ids, garbage), which callers
 * hand to ipaddr.js.
 */
export type IpParts = { kind: 'ipv4'; value: number } | { kind: 'ipv6'; parts: number[] };

const HEXTET = /^[0-9a-fA-F]{1,4}$/;
const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function readIp(text: string): IpParts | null {
  if (!text.includes(':')) {
    const octets = text.split('.');
    if (octets.length !== 4) return null;
    let value = 0;
    for (const octet of octets) {
      if (!OCTET.test(octet)) return null;
      value = value * 256 + Number(octet);
    }
    return { kind: 'ipv4', value };
  }
  if (text.includes('.') || text.includes('%')) return null;
  const gap = text.indexOf('::');
  let head: string[];
  let tail: string[];
  if (gap === -1) {
    head = text.split(':');
    tail = [];
    if (head.length !== 8) return null;
  } else {
    if (text.includes('::', gap + 1)) return null;
    head = gap === 0 ? [] : text.slice(0, gap).split(':');
    const rest = text.slice(gap + 2);
    tail = rest === '' ? [] : rest.split(':');
    if (head.length + tail.length > 7) return null;
  }
  const parts = new Array<number>(8).fill(0);
  for (let i = 0; i < head.length; i++) {
    const group = head[i] as string;
    if (!HEXTET.test(group)) return null;
    parts[i] = Number.parseInt(group, 16);
  }
  for (let i = 0; i < tail.length; i++) {
    const group = tail[i] as string;
    if (!HEXTET.test(group)) return null;
    parts[8 - tail.length + i] = Number.parseInt(group, 16);
  }
  return { kind: 'ipv6', parts };
}

/** An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, in hex) as its IPv4 value, else null. */
export function mappedIpv4(parts: readonly number[]): number | null {
  for (let i = 0; i < 5; i++) if (parts[i] !== 0) return null;
  return parts[5] === 0xffff ? (parts[6] as number) * 65536 + (parts[7] as number) : null;
}

export function ipv4Text(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}
