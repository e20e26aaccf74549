import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../../components/testUtils';
import { apiError, fakeGateway, json, noContent, type Handler } from '../../../testing/fakeGateway';
import { WebhooksSection } from './WebhooksSection';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const hook = (n: number) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, url: `https://hooks.example.com/${n}`, createdAt: '2026-11-25T10:00:00.000Z' });
const delivery = (over: Record<string, unknown>) => ({
  id: '10000000-0000-4000-8000-000000000001',
  webhookId: hook(1).id,
  eventId: '20000000-0000-4000-8000-000000000001',
  eventType: 'upload.failed',
  status: 'pending',
  attempts: 2,
  responseStatus: 500,
  responseExcerpt: 'upstream broke',
  durationMs: 80,
  createdAt: '2026-11-25T10:00:00.000Z',
  lastAttemptAt: '2026-11-25T10:01:00.000Z',
  nextAttemptAt: '2026-11-25T10:03:00.000Z',
  ...over,
});

function setup(routes: Record<string, Handler>) {
  const api = fakeGateway(routes);
  const app = renderApp('/account', { session: testSession, pages: [{ path: '/account', element: <WebhooksSection /> }] });
  return { ...api, ...app, user: userEvent.setup() };
}

describe('the Webhooks section', () => {
  it('shows the server reason for a refused URL, and the secret once for an accepted one', async () => {
    let webhooks: ReturnType<typeof hook>[] = [];
    const { user, calls } = setup({
      'GET /api/webhooks': () => json({ webhooks, deliveries: [] }),
      'POST /api/webhooks': (_req, body) => {
        const url = (body as { url: string }).url;
        if (url.includes('10.0.0.1')) return apiError(400, 'webhooks/refused-url', '10.0.0.1 points at a private or reserved address');
        webhooks = [hook(1)];
        return json({ webhook: hook(1), secret: 'whsec_abc123' }, 201);
      },
    });
    const section = await screen.findByRole('region', { name: 'Webhooks' });
    const input = within(section).getByLabelText('Endpoint URL');
    await user.type(input, 'https://10.0.0.1/x');
    await user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent('10.0.0.1 points at a private or reserved address');
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.clear(input);
    await user.type(input, '  https://hooks.example.com/1 ');
    await user.click(within(section).getByRole('button', { name: 'Add webhook' }));
    expect(await within(section).findByLabelText(/Your signing secret/)).toHaveValue('whsec_abc123');
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ url: 'https://hooks.example.com/1' });
    expect(await within(section).findByRole('list', { name: 'Your webhooks' })).toHaveTextContent('https://hooks.example.com/1');
    await user.click(within(section).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByLabelText(/Your signing secret/)).toBeNull();
    // Typing two URLs key by key is slow on a busy machine.
  }, 20_000);

  it('lists deliveries with their answers, and stops offering to add at the limit', async () => {
    setup({
      'GET /api/webhooks': () =>
        json({
          webhooks: [1, 2, 3, 4, 5].map(hook),
          deliveries: [
            delivery({}),
            delivery({ id: '10000000-0000-4000-8000-000000000002', eventType: 'upload.processed', status: 'delivered', attempts: 1, responseStatus: 204, nextAttemptAt: null }),
            delivery({ id: '10000000-0000-4000-8000-000000000003', status: 'failed', responseStatus: null, responseExcerpt: 'no answer within 10000 ms', nextAttemptAt: null }),
          ],
        }),
    });
    const list = await screen.findByRole('list', { name: 'Recent deliveries' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent(/Upload failed.*Retrying.*HTTP 500 · 2 attempts · 80 ms.*Next try.*upstream broke/);
    expect(items[1]).toHaveTextContent(/Upload processed.*Delivered.*HTTP 204 · 1 attempt/);
    expect(items[2]).toHaveTextContent(/Gave up.*No answer.*no answer within 10000 ms/);
    expect(screen.getByRole('button', { name: 'Add webhook' })).toBeDisabled();
    expect(screen.getByText('You have 5 webhooks; delete one to add another.')).toBeInTheDocument();
  });

  it('deletes a webhook after asking', async () => {
    let webhooks = [hook(1)];
    const { user, calls } = setup({
      'GET /api/webhooks': () => json({ webhooks, deliveries: [] }),
      [`DELETE /api/webhooks/${hook(1).id}`]: () => {
        webhooks = [];
        return noContent();
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete webhook https://hooks.example.com/1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete webhook' }));
    await screen.findByText(/Up to 5 URLs/);
    await expect.poll(() => screen.queryByRole('list', { name: 'Your webhooks' })).toBeNull();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
