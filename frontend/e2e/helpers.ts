import { readFileSync, readdirSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { confirmationTokenIn, mailboxMessages } from '../../scripts/lib/mailbox.mjs';

export const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

/** Saves a full-page screenshot as a test artifact (test-results/screenshots/<name>.png). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/**
 * Signs up through the login page; ends on the onboarding page. Unless `confirm` is false, the e-mail is then
 * confirmed with the mailed link's token (as the page the link opens does) and the free credits are waited for.
 */
export async function signUp(page: Page, email = uniqueEmail('e2e'), password = 'browser-pass-1', { confirm = true } = {}): Promise<{ email: string; password: string }> {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign Up', exact: true }).first().click();
  const form = page.getByRole('form', { name: 'Sign up form' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page).toHaveURL(/\/onboarding$/);
  if (confirm) {
    await expect.poll(async () => confirmationTokenFor(email), { timeout: 15_000 }).toBeTruthy();
    const confirmed = await page.request.post('/api/auth/email-confirmation/confirm', { data: { token: await confirmationTokenFor(email) } });
    expect(confirmed.status()).toBe(200);
    await expect.poll(() => credits(page), { timeout: 15_000 }).toBeGreaterThan(0);
  }
  return { email, password };
}

const mailbox = () => path.join(process.env.FRAMETEXT_E2E_DATA_DIR ?? '', 'mailbox');

/** The token of the newest e-mail confirmation link mailed to `email`, if it has arrived. */
export async function confirmationTokenFor(email: string): Promise<string | undefined> {
  return confirmationTokenIn(await mailboxMessages(mailbox()), email);
}

/** Logs out from the user menu and waits for the landing page. */
export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);
}

export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Log in form' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Log In' }).click();
}

/** The newest reset link e-mailed to `email` (the local mailbox folder of the stack under test). */
export function resetLinkFor(email: string): string | undefined {
  const dir = path.join(process.env.FRAMETEXT_E2E_DATA_DIR ?? '', 'mailbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir).sort().reverse();
  } catch {
    return undefined;
  }
  for (const f of files) {
    const text = readFileSync(path.join(dir, f), 'utf8').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!text.includes(email)) continue;
    const m = /https?:\/\/\S+?reset-password\?token=[A-Za-z0-9_-]+/.exec(text);
    if (m) return m[0];
  }
  return undefined;
}

/** Calls the gateway as the signed-in page does (its token from the stored session). */
export async function api(page: Page, method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return page.evaluate(
    async ([method, apiPath, body]) => {
      const session = JSON.parse(localStorage.getItem('frametext.session') ?? '{}') as { idToken?: string };
      const res = await fetch(`/api${apiPath}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${session.idToken}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    [method, apiPath, body] as const,
  );
}

/** The signed-in person's credit balance, as the server has it now. */
export const credits = async (page: Page) => (await api(page, 'GET', '/getUserData')).body.credits as number;

/** Waits until the demo upload (made by the first start) has gone through the pipeline. */
export async function waitForDemo(page: Page): Promise<void> {
  await expect
    .poll(async () => (await page.request.get('/api/getUploadDetails/demo')).status(), { timeout: 180_000, intervals: [2_000] })
    .toBe(200);
}

export interface WizardUpload {
  name: string;
  /** Paths of the media files (one video, or photos). */
  files: string[];
  /** The interval option's label, e.g. 'Capture text every 1 seconds' (videos only). */
  intervalLabel?: string;
  mediaContent?: 'numerical' | 'presentation' | 'captions' | 'scroll';
  /** Presentation only: false turns slide detection off, so every frame at the interval is read. */
  slideDetection?: boolean;
}

/**
 * Uploads media through the wizard as a signed-in user and waits until processing is done; returns the results
 * page's path (/view-upload/<id>).
 */
export async function uploadThroughWizard(page: Page, upload: WizardUpload): Promise<string> {
  await page.goto('/upload');
  await page.getByLabel('Upload name').fill(upload.name);
  await page.getByLabel('Media files').setInputFiles(upload.files);
  if (upload.mediaContent) await page.getByLabel('Media content').selectOption(upload.mediaContent);
  if (upload.slideDetection !== undefined) await page.getByLabel('Slide detection').setChecked(upload.slideDetection);
  if (upload.intervalLabel) await page.getByLabel('Frame interval').selectOption({ label: upload.intervalLabel });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const open = page.getByRole('link', { name: 'View results' });
  await expect(open).toBeVisible({ timeout: 180_000 });
  const href = await open.getAttribute('href');
  if (!href) throw new Error('the wizard offered no results link');
  return href;
}

/**
 * Puts a record into the browser's database of local runs (resultsDB, store results, key id) as the Local page saves
 * one, so a spec can open /view-upload/<id> on it. The page must be on the app's origin. Frame pictures are drawn in
 * the page (a canvas) by the spec and passed in `record.data` as data URLs.
 */
export async function putLocalRecord(page: Page, record: { id: string; [field: string]: unknown }): Promise<void> {
  await page.evaluate(
    (rec) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('resultsDB');
        open.onupgradeneeded = () => open.result.createObjectStore('results', { keyPath: 'id' });
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('results', 'readwrite');
          tx.objectStore('results').put(rec);
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    record,
  );
}
