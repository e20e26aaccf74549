import { expect, test, type Page } from '@playwright/test';
import { shot, signUp } from './helpers';

/** Calls the API as a script would, from outside the browser, with a personal token. */
async function asScript(page: Page, token: string, path = '/api/getUploads') {
  const res = await page.request.get(path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status(), body: (await res.json()) as { error?: { message: string } } };
}

/** Creates a token as a person does on the Account page: a name, a scope and their password. */
async function createToken(page: Page, name: string, scope: 'Read only' | 'Read and upload', password: string): Promise<string> {
  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByLabel('Token name').fill(name);
  await section.getByRole('radio', { name: new RegExp(scope) }).check();
  await section.getByLabel('Your password').fill(password);
  await section.getByRole('button', { name: 'Create token' }).click();
  const shown = section.getByRole('status', { name: 'New API token' });
  await expect(shown).toContainText('You will not see it again.');
  return (await shown.getByLabel('Token text').textContent())!.trim();
}

for (const size of [
  { name: 'desktop', width: 1366, height: 768 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`API tokens at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, permissions: ['clipboard-read', 'clipboard-write'] });

    test('a token is created, copied and shown once, works for a script, and stops working once revoked', async ({ page }) => {
      const { password } = await signUp(page);
      await page.goto('/account');
      const section = page.getByRole('region', { name: 'API tokens' });
      await expect(section.getByText('You have no API tokens.')).toBeVisible();

      const token = await createToken(page, `${size.name} script`, 'Read and upload', password);
      expect(token).toMatch(/^ftpat_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
      await section.getByRole('button', { name: 'Copy token' }).click();
      await expect(page.getByText('Token copied to clipboard.')).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
      // Nothing is wider than the screen, the long token included.
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      await section.scrollIntoViewIfNeeded();
      await shot(page, `api-tokens-created-${size.name}`);

      const list = section.getByRole('list', { name: 'Your API tokens' });
      await expect(list.getByText(`${size.name} script`)).toBeVisible();
      await expect(list.getByText(/Never used/)).toBeVisible();
      expect((await asScript(page, token)).status).toBe(200);

      // Shown once: after Done, and after a reload, the text is nowhere on the page; the list tells of the use.
      await section.getByRole('button', { name: 'Done, I have copied it' }).click();
      await page.reload();
      await expect(list.getByText(/Last used/)).toBeVisible();
      await expect(page.getByText(token)).toHaveCount(0);

      await list.getByRole('button', { name: `Revoke ${size.name} script` }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke this API token?' });
      await expect(dialog).toBeVisible();
      await shot(page, `api-tokens-revoke-${size.name}`);
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await expect(section.getByText('You have no API tokens.')).toBeVisible();
      // The gateway keeps an exchange at most API_TOKEN_CACHE_MS (5 s).
      await expect.poll(async () => (await asScript(page, token)).status, { timeout: 8_000 }).toBe(401);
      expect((await asScript(page, token)).body.error?.message).toBe('This API token was revoked or does not exist.');
    });
  });
}

test('a read-only token is told it cannot upload', async ({ page }) => {
  const { password } = await signUp(page);
  await page.goto('/account');
  const token = await createToken(page, 'reader', 'Read only', password);
  const res = await page.request.post('/api/getUploadURL', {
    headers: { authorization: `Bearer ${token}` },
    data: { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: 'a.mp4', ocrType: 'server', duration: 5 },
  });
  expect(res.status()).toBe(403);
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe('This token can only read; create one with the upload scope on your Account page.');
});

test('a token needs the password; changing the password revokes it and keeps this tab signed in', async ({ page }) => {
  const { email, password } = await signUp(page);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'API tokens' });
  await section.getByLabel('Token name').fill('no password');
  await section.getByRole('button', { name: 'Create token' }).click();
  await expect(section.getByText('Enter your password to create a token.')).toBeVisible();
  await section.getByLabel('Your password').fill('not-my-password-1');
  await section.getByRole('button', { name: 'Create token' }).click();
  await expect(section.getByText('That is not your password. Enter the password you sign in with to create an API token.')).toBeVisible();
  const token = await createToken(page, 'before the change', 'Read only', password);
  expect((await asScript(page, token)).status).toBe(200);

  const change = page.getByRole('region', { name: 'Password', exact: true });
  await change.getByLabel('Current password').fill(password);
  await change.getByLabel('New password', { exact: true }).fill('changed-pass-2');
  await change.getByLabel('Confirm new password').fill('changed-pass-2');
  await change.getByRole('button', { name: 'Change password' }).click();
  await expect(change.getByText(/Every other session was signed out and every API token was revoked/)).toBeVisible();
  await shot(page, 'password-changed');
  await expect(section.getByText('You have no API tokens.')).toBeVisible();
  await expect.poll(async () => (await asScript(page, token)).status, { timeout: 8_000 }).toBe(401);
  // This tab stays signed in with the new session, and the new password signs in.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
});
