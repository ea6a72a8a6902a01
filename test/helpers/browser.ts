/** Debian's Chromium driven by playwright-core (no browser download). */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export async function launchChromium(): Promise<Browser> {
  if (!chromiumAvailable()) {
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium), as .ci/run does.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // This machine's network is closed: without these Chromium keeps dialling Google's hosts.
    args: [
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

/**
 * The lead link asks who is annotating (no preselected annotator; the choice is per tab).
 * `choice` clicks a person the project already knows (offered in the picker), `typed` enters a
 * new name. Resolves once the picker has gone.
 */
export async function pickAnnotator(page: Page, name: string, how: 'choice' | 'typed'): Promise<void> {
  const picker = page.getByTestId('annotator-picker');
  await picker.waitFor({ timeout: 30_000 });
  if (how === 'choice') {
    await page.getByTestId(`annotator-choice-${name}`).click();
  } else {
    await page.getByTestId('annotator-name').fill(name);
    await page.getByTestId('annotator-submit').click();
  }
  await picker.waitFor({ state: 'detached' });
}

/**
 * The reveal gate: opening Analysis or Review with unfinished sampled summaries asks first. Reads
 * what the dialog names (how many summaries, whose), confirms with Enter (the dialog's keyboard
 * path) and waits until it has closed.
 */
export async function confirmReveal(page: Page): Promise<{ count: number; annotator: string; text: string }> {
  const dialog = page.getByTestId('reveal-dialog');
  await dialog.waitFor({ timeout: 30_000 });
  const text = await page.getByTestId('reveal-text').innerText();
  const named = /for ([\d,]+) summar(?:y|ies) (.+?) has not finished\./.exec(text);
  if (!named) throw new Error(`the reveal dialog names no count and annotator: ${text}`);
  await page.keyboard.press('Enter');
  await dialog.waitFor({ state: 'detached' });
  return { count: Number(named[1]!.replace(/,/g, '')), annotator: named[2]!, text };
}

/**
 * Label keys paint at once and show "saving" until the core stored them: waits until no write is
 * in flight, so what the page shows is what the project holds. Call it after waiting for the
 * painted label (the paint and "saving" arrive in one render; before it there is nothing to wait on).
 */
export async function labelsStored(page: Page): Promise<void> {
  await page.getByTestId('saving').waitFor({ state: 'detached', timeout: 15_000 });
}
