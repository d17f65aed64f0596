/** The one way tests and benchmarks start a browser: headless Debian Chromium. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless Debian Chromium; fails (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: the browser tests and benchmarks need a real browser. Install Debian chromium: apt-get install -y chromium`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking flags this machine's closed network refuses connections.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}
