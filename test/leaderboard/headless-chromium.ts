import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium, headless (deploy/install.sh installs it). Without the
 * background-networking flags it keeps calling home, and this machine's network is closed.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
