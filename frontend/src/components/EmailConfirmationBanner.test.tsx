import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeGateway, json, noContent, testConfig } from '../testing/fakeGateway';
import { renderApp, testSession } from './testUtils';

afterEach(() => {
  vi.unstubAllGlobals();
});

const unconfirmed = () => json({ email: 'ada@example.com', confirmed: false });

describe('EmailConfirmationBanner', () => {
  it('asks a signed-in person with an unconfirmed e-mail to confirm it for the free credits, and sends the link again', async () => {
    const { calls } = fakeGateway({ 'GET /api/auth/email-confirmation': unconfirmed, 'POST /api/auth/email-confirmation': noContent });
    renderApp('/uploads', { session: testSession });
    const banner = await screen.findByRole('region', { name: 'Confirm your e-mail' });
    await waitFor(() => expect(banner).toHaveTextContent('Confirm your e-mail to get your 50 free credits.'));
    expect(banner).toHaveTextContent('We sent a link to ada@example.com: open it to confirm.');

    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Send the link again' }));
    expect(await within(banner).findByRole('status')).toHaveTextContent('A new link is on its way to ada@example.com.');
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/auth/email-confirmation')).toHaveLength(1);
  });

  it("shows the server's words when the link cannot be sent again", async () => {
    fakeGateway({
      'GET /api/auth/email-confirmation': unconfirmed,
      'POST /api/auth/email-confirmation': () => apiError(429, 'auth/too-many-requests', 'You asked for several confirmation e-mails already.'),
    });
    renderApp('/uploads', { session: testSession });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send the link again' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You asked for several confirmation e-mails already.');
  });

  it('promises no credits when the server grants none', async () => {
    fakeGateway({ 'GET /api/auth/email-confirmation': unconfirmed, 'GET /api/config': () => json({ ...testConfig, freeCredits: 0 }) });
    renderApp('/uploads', { session: testSession });
    const banner = await screen.findByRole('region', { name: 'Confirm your e-mail' });
    await waitFor(() => expect(banner).toHaveTextContent('Confirm your e-mail address.'));
    expect(banner).not.toHaveTextContent('free credits');
  });

  it('is not shown once the e-mail is confirmed, nor to anyone signed out (who is not asked at all)', async () => {
    const { calls } = fakeGateway();
    renderApp('/uploads', { session: testSession });
    await waitFor(() => expect(calls.some((c) => c.path === '/api/auth/email-confirmation')).toBe(true));
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail' })).not.toBeInTheDocument();

    vi.unstubAllGlobals();
    const signedOut = fakeGateway();
    renderApp('/', { session: null });
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail' })).not.toBeInTheDocument();
    expect(signedOut.calls.filter((c) => c.path === '/api/auth/email-confirmation')).toEqual([]);
  });
});
