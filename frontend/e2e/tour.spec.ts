import { expect, test, type Page } from '@playwright/test';
import { shot, signUp } from './helpers';

const PHONE = { width: 375, height: 800 };

/** Waits for the page's heading, checks nothing sticks out sideways at this width, and saves a screenshot. */
async function looksRightAtPhoneWidth(page: Page, path: string, name: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${path} scrolls sideways by ${overflow}px at ${PHONE.width}px wide`).toBeLessThanOrEqual(0);
  await shot(page, name);
}

test.use({ viewport: PHONE });

test('every public page fits a phone in the dark theme', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  for (const [path, name] of [
    ['/', 'phone-dark-landing'],
    ['/blog', 'phone-dark-blog'],
    ['/blog/ev-charge-curve-analysis', 'phone-dark-blog-post'],
    ['/about', 'phone-dark-about'],
    ['/terms', 'phone-dark-terms'],
    ['/privacy-policy', 'phone-dark-privacy'],
    ['/login', 'phone-dark-login'],
  ] as const) {
    await looksRightAtPhoneWidth(page, path, name);
  }
});

test('every signed-in page fits a phone in both themes', async ({ page }) => {
  await signUp(page);
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    for (const [path, name] of [
      ['/onboarding', 'onboarding'],
      ['/uploads', 'uploads'],
      ['/upload', 'wizard'],
      ['/account', 'account'],
      ['/local', 'local'],
    ] as const) {
      await looksRightAtPhoneWidth(page, path, `phone-${theme}-${name}`);
    }
  }
  // One menu at this width: the site links are in the Menu, with no ☰ beside it.
  await expect(page.getByRole('button', { name: 'Show site links' })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Site' })).toBeHidden();
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  const panel = page.locator(`[id="${await menu.getAttribute('aria-controls')}"]`);
  await expect(panel.getByRole('link', { name: 'Blog' })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Account' })).toBeVisible();
  await shot(page, 'phone-dark-site-menu');
});

test('a person signs up and reaches the uploads list with the keyboard alone, seeing where the focus is', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const { email, password } = await signUp(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Log in form' });
  const emailField = form.getByLabel('Email');
  // Tab from the top of the page until the e-mail field has the focus.
  await page.locator('body').focus();
  for (let i = 0; i < 30 && !(await emailField.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(emailField).toBeFocused();
  const outline = await emailField.evaluate((el) => {
    const style = getComputedStyle(el);
    return { outline: style.outlineStyle, width: parseFloat(style.outlineWidth), shadow: style.boxShadow };
  });
  expect(outline.outline !== 'none' && outline.width > 0 ? true : outline.shadow !== 'none').toBe(true);
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(form.getByLabel('Password', { exact: true })).toBeFocused();
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/uploads$/);
});
