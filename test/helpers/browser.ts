/** Debian's Chromium driven by playwright-core (no browser download). */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable()) {
    throw new Error(`No Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium), as .ci/run does.`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // This machine's network is closed: without these Chromium keeps dialling Google's hosts.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
