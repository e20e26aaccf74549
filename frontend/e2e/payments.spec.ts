import { expect, test } from '@playwright/test';
import { shot, signUp } from './helpers';

// With no Stripe key the stack runs the simulated checkout: billing's own payment page, whose Pay button sends
// the webhook Stripe would send, signed the same way.

test('a signed-in user buys 500 credits through the simulated checkout and sees the balance rise without reloading', async ({ page, context }) => {
  await signUp(page);
  await page.goto('/uploads');
  const balance = page.getByTestId('credit-balance');
  await expect(balance).toHaveText('50');
  // Set on this document only: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  await page.getByRole('button', { name: 'Purchase Credits' }).click();
  const dialog = page.getByRole('dialog', { name: 'Purchase Credits' });
  const opened = context.waitForEvent('page');
  await dialog.getByRole('button', { name: /^500 credits/ }).click();
  const checkout = await opened;

  await expect(checkout).toHaveURL(/\/api\/simulated-checkout\/cs_sim_[a-f0-9]+$/);
  await expect(checkout.getByRole('heading', { name: 'Buy 500 credits' })).toBeVisible();
  await expect(checkout.getByText('no card is asked for and no money moves')).toBeVisible();
  await expect(dialog.getByText(/payment page opened in a new tab/)).toBeVisible();
  await shot(checkout, 'checkout-simulated');

  await checkout.getByRole('button', { name: 'Pay $5.00 (simulated)' }).click();
  await expect(checkout).toHaveURL(/\/checkout-success\?session_id=cs_sim_/);
  await expect(checkout.getByTestId('checkout-balance')).toHaveText('500 credits were added. Your balance: 550 credits');
  await shot(checkout, 'checkout-success');

  // The first tab refetches the profile every 5 s after opening the checkout.
  await expect(dialog).toContainText('Your balance: 550 credits', { timeout: 12_000 });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(balance).toHaveText('550');
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  await checkout.getByRole('link', { name: 'Return to dashboard' }).click();
  await expect(checkout).toHaveURL(/\/uploads$/);
  await expect(checkout.getByTestId('credit-balance')).toHaveText('550');
});

test('with new tabs blocked the checkout opens in the same window; cancelling changes nothing, paying adds the pack', async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await signUp(page);
  await page.goto('/account');

  await page.getByRole('button', { name: /^100 credits/ }).click();
  await expect(page).toHaveURL(/\/api\/simulated-checkout\/cs_sim_/);
  await page.getByRole('link', { name: 'Cancel and return to FrameText' }).click();
  await expect(page).toHaveURL(/\/checkout-cancelled$/);
  await expect(page.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to dashboard' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('50');

  await page.goto('/account');
  await page.getByRole('button', { name: /^100 credits/ }).click();
  await page.getByRole('button', { name: 'Pay $1.00 (simulated)' }).click();
  await expect(page.getByTestId('checkout-balance')).toHaveText('100 credits were added. Your balance: 150 credits');
  await page.goto('/account');
  await expect(page.getByText('Starter')).toBeVisible();
});
