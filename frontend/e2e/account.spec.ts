import { expect, test } from '@playwright/test';
import { logIn, logOut, resetLinkFor, shot, signUp, uniqueEmail } from './helpers';

test('a new user signs up, sees the onboarding, logs out and logs back in to the uploads list', async ({ page }) => {
  const { email, password } = await signUp(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shot(page, 'onboarding');
  await page.goto('/account');
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
  await shot(page, 'account');
  await logOut(page);
  await logIn(page, email, password);
  await expect(page).toHaveURL(/\/uploads$/);
});

test('a wrong password shows the spec message and offers the reset; the mailed link sets a new password', async ({ page }) => {
  const { email } = await signUp(page, uniqueEmail('reset'));
  await logOut(page);

  await logIn(page, email, 'not-my-password-1');
  await expect(page.getByText('Invalid email or password.')).toBeVisible();
  await shot(page, 'login-error');
  // The log-in form stays, its password cleared for another try, and the message offers a reset.
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await page.getByRole('button', { name: 'Reset your password' }).click();
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password reset link sent to your email.')).toBeVisible();

  await expect.poll(() => resetLinkFor(email), { timeout: 15_000 }).toBeTruthy();
  const link = new URL(resetLinkFor(email)!);
  await page.goto(`${link.pathname}${link.search}`);
  await shot(page, 'reset-password');
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('brand-new-pass-2');
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill('brand-new-pass-2');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText(/password (has been|was) (changed|reset|updated)/i)).toBeVisible();

  await logIn(page, email, 'brand-new-pass-2');
  await expect(page).toHaveURL(/\/uploads$/);
});
