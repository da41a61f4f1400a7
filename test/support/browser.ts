import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';
import { Browser, chromium, Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, driven by playwright-core. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** A free loopback port, so the app's BASE_URL (the local identity provider's issuer) can name it before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Screenshots are test artefacts under test-artifacts/web (ignored by git). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = path.join(__dirname, '..', '..', 'test-artifacts', 'web');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Signs in through the local identity provider's e-mail form, from any page that links to sign-in. */
export async function signInLocally(page: Page, email: string): Promise<void> {
  await page.getByRole('link', { name: /Sign in with e-mail/ }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * Runs axe-core in the page and answers its serious and critical violations, each as
 * `rule: the elements it found` (the context needs `bypassCSP`: the checker is an injected script).
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  // A string, so it runs in the page without the DOM types in this (node) project.
  const violations = (await page.evaluate(
    'window.axe.run().then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) })))',
  )) as { id: string; impact: string; targets: string[] }[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.targets.join(', ')}`);
}
