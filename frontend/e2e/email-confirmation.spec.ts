import { expect, test } from '@playwright/test';
import { confirmationTokenFor, credits, shot, signUp, uniqueEmail } from './helpers';

test('a new account gets its free credits once the mailed link is opened, and only once', async ({ page }) => {
  const email = uniqueEmail('confirm');
  await signUp(page, email, undefined, { confirm: false });
  await page.goto('/uploads');
  const banner = page.getByRole('region', { name: 'Confirm your e-mail' });
  await expect(banner).toContainText('Confirm your e-mail to get your 50 free credits.');
  await expect(banner).toContainText(`We sent a link to ${email}`);
  await expect(page.getByTestId('credit-balance')).toHaveText('0');
  await shot(page, 'confirm-email-banner');

  const first = await confirmationTokenFor(email);
  await banner.getByRole('button', { name: 'Send the link again' }).click();
  await expect(banner.getByRole('status')).toContainText(`A new link is on its way to ${email}`);
  await expect.poll(() => confirmationTokenFor(email), { timeout: 15_000 }).not.toBe(first);

  // The mailed link opens the app's page, which confirms the address.
  const link = `/confirm-email?token=${encodeURIComponent((await confirmationTokenFor(email))!)}`;
  await page.goto(link);
  await expect(page.getByRole('main').getByRole('status')).toContainText(`Thank you: ${email} is confirmed. Your 50 free credits are on their way`);
  await expect.poll(() => credits(page), { timeout: 15_000 }).toBe(50);
  await page.getByRole('link', { name: 'Go to your uploads' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('50');
  await expect(banner).toHaveCount(0);

  // The link again: spent, and nothing more is granted.
  await page.goto(link);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('This confirmation link is invalid, already used or expired.');
  expect(await credits(page)).toBe(50);
});
