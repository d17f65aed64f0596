import { networkInterfaces } from 'node:os';

/** What `os.networkInterfaces()` answers (tests pass their own). */
export type InterfaceReader = () => ReturnType<typeof networkInterfaces>;

/** Re-read well within the minute the rule allows, so a new address is refused soon. */
const MAX_AGE_MS = 30_000;

/**
 * The addresses this machine's network cards hold, IPv4 and IPv6, read from the OS and
 * read again when older than 30 seconds (an interface may gain a public address at any
 * time: a cloud VM's elastic IP, a VPN). A webhook must never reach the server itself,
 * whatever range its address lies in.
 */
export function createOwnAddresses(
  options: { read?: InterfaceReader; now?: () => number } = {},
): () => ReadonlySet<string> {
  const read = options.read ?? networkInterfaces;
  const now = options.now ?? Date.now;
  let readAt = Number.NEGATIVE_INFINITY;
  let addresses: ReadonlySet<string> = new Set();
  return () => {
    if (now() - readAt >= MAX_AGE_MS) {
      const found = new Set<string>();
      for (const list of Object.values(read())) {
        // Zone ids (fe80::1%eth0) are not part of an address we would connect to.
        for (const entry of list ?? []) found.add(entry.address.replace(/%.*$/, ''));
      }
      addresses = found;
      readAt = now();
    }
    return addresses;
  };
}
