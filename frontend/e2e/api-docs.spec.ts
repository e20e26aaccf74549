import { expect, test } from '@playwright/test';
import { shot } from './helpers';

test.use({ viewport: { width: 390, height: 844 } });

/** How far the page runs past the window's right edge (0 when nothing makes a reader scroll sideways). */
const sideways = (page: import('@playwright/test').Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('the API reference reads the served description at a phone width, and opens an upload call into its fields', async ({ page, request }) => {
  const served = await request.get('/api/openapi.json');
  expect(served.status()).toBe(200);
  const doc = (await served.json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);

  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'API' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  await expect(page.locator('article.api-op')).toHaveCount(operations);
  await shot(page, 'api-reference-phone');

  await page.getByRole('navigation', { name: 'Endpoints' }).getByRole('link', { name: /\/api\/getUploadURL/ }).click();
  const upload = page.locator('#postGetUploadURL');
  await expect(upload.getByText('Needs a token: Authorization: Bearer <token>.')).toBeInViewport();
  await upload.getByText('Fields', { exact: true }).click();
  await expect(upload.getByText("Photos by their capture times (the spec's request: no files list)")).toBeVisible();
  await upload.getByText('GetUploadUrlResponse').click();
  await expect(upload.getByText('urls', { exact: true })).toBeVisible();
  await shot(page, 'api-reference-upload-phone');
  expect(await sideways(page)).toBe(0);
});
