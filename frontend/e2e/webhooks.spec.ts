import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { shot, signUp } from './helpers';

// The Account page's Webhooks section on a phone: add a URL, keep the secret shown once, send a test event to a real
// receiver that checks the signature, see the answer in the recent deliveries, delete the webhook.
test.use({ viewport: { width: 390, height: 844 } });

let server: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('got it');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test('a person adds a webhook, keeps its secret, sends a signed test event and sees the answer, then deletes it', async ({ page }) => {
  await signUp(page);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Webhooks' });
  await section.scrollIntoViewIfNeeded();

  // A private address is refused with the reason.
  await section.getByLabel('Endpoint URL').fill('https://10.0.0.7/hooks');
  await section.getByRole('button', { name: 'Add webhook' }).click();
  await expect(section.getByRole('alert')).toContainText('private or reserved address');
  // A half-typed address is refused in a sentence, with no field name in front.
  await section.getByLabel('Endpoint URL').fill('example.com/hooks');
  await section.getByRole('button', { name: 'Add webhook' }).click();
  await expect(section.getByRole('alert')).toHaveText('The address must be a full URL, such as https://example.com/frametext.');

  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/frametext`;
  await section.getByLabel('Endpoint URL').fill(url);
  await section.getByRole('button', { name: 'Add webhook' }).click();
  const secretBox = section.getByLabel(/Your signing secret/);
  await expect(secretBox).toHaveValue(/^whsec_/);
  const secret = await secretBox.inputValue();
  await expect(section.getByRole('list', { name: 'Your webhooks' })).toContainText(url);

  await section.getByRole('button', { name: 'Send test event' }).click();
  const deliveries = section.getByRole('list', { name: 'Recent deliveries' });
  await expect(deliveries.getByText('Delivered')).toBeVisible({ timeout: 15_000 });
  await expect(deliveries).toContainText('HTTP 200');
  await expect(deliveries).toContainText('Test event');
  // Nothing is wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'account-webhooks-phone');

  // The receiver got it, signed with the secret the page showed.
  expect(received).toHaveLength(1);
  const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(received[0]!.headers['frametext-signature']))!;
  expect(createHmac('sha256', secret).update(`${t}.${received[0]!.body}`).digest('hex')).toBe(v1);
  expect(JSON.parse(received[0]!.body)).toMatchObject({ type: 'webhook.test', id: received[0]!.headers['frametext-event-id'] });

  // The secret is not shown again.
  await section.getByRole('button', { name: 'Done' }).click();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Webhooks' }).getByLabel(/Your signing secret/)).toHaveCount(0);

  await page.getByRole('button', { name: `Delete webhook ${url}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete webhook' }).click();
  await expect(page.getByRole('list', { name: 'Your webhooks' })).toHaveCount(0);
});
