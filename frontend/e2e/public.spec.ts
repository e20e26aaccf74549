import { expect, test } from '@playwright/test';
import { shot, waitForDemo } from './helpers';

test('the landing page offers the demo, sign-up and the pricing, in both themes and at a phone width', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign up for free' }).or(page.getByRole('button', { name: 'Sign up for free' })).first()).toBeVisible();
  await expect(page.getByText('Start Textracting').first()).toBeVisible();
  await shot(page, 'landing-light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'landing-dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shot(page, 'landing-phone-dark');
});

test('the blog, about and legal pages read well', async ({ page }) => {
  await page.goto('/blog');
  const posts = page.locator('a[href^="/blog/"]');
  await expect(posts.first()).toBeVisible();
  await shot(page, 'blog');
  await page.goto('/blog/ev-charge-curve-analysis');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await shot(page, 'blog-post');
  for (const [path, name] of [['/about', 'about'], ['/terms', 'terms'], ['/privacy-policy', 'privacy']] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shot(page, name);
  }
  await expect(page.getByText(/30 days/).first()).toBeVisible();
});

test('signed-out visitors to signed-in pages land on the home page; unknown paths too', async ({ page }) => {
  for (const path of ['/uploads', '/upload', '/account', '/onboarding', '/view-upload/abc', '/local', '/no/such/page']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
  }
});

test('the demo opens from the landing page without signing in and shows recognised text', async ({ page }) => {
  await waitForDemo(page);
  await page.goto('/');
  await page.getByText('Try the demo').first().click();
  await expect(page).toHaveURL(/\/demo$/);
  await expect(page.getByText(/kW/).filter({ visible: true }).first()).toBeVisible({ timeout: 30_000 });
  await shot(page, 'demo');
});

test.describe('a first visit', () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test('opens the getting-started guide once', async ({ page }) => {
    await page.goto('/');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await shot(page, 'getting-started');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });
});
