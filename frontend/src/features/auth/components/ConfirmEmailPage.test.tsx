import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../../components/testUtils';
import { apiError, fakeGateway, json } from '../../../testing/fakeGateway';
import { stopWatchingProfile } from '../../../lib/credits/profileWatch';
import ConfirmEmailPage from './ConfirmEmailPage';

afterEach(() => {
  stopWatchingProfile();
  vi.unstubAllGlobals();
});

const pages = [{ path: '/confirm-email', element: <ConfirmEmailPage /> }];

describe('ConfirmEmailPage', () => {
  it("sends the link's token once and says the address is confirmed and the free credits are coming", async () => {
    const { calls } = fakeGateway({ 'POST /api/auth/email-confirmation/confirm': () => json({ email: 'ada@example.com', confirmed: true }) });
    renderApp('/confirm-email?token=tok-1', { session: testSession, pages });
    expect(await screen.findByText('Thank you: ada@example.com is confirmed. Your 50 free credits are on their way: they show on your balance within a few seconds.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/auth/email-confirmation/confirm')).toEqual([{ method: 'POST', path: '/api/auth/email-confirmation/confirm', body: { token: 'tok-1' } }]);
    expect(screen.getByRole('link', { name: 'Go to your uploads' })).toHaveAttribute('href', '/uploads');
    // The page says it all: no banner asking to confirm on top of it.
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail' })).not.toBeInTheDocument();
  });

  it("shows the server's words for a used or expired link, and works signed out (the link is the proof)", async () => {
    fakeGateway({
      'POST /api/auth/email-confirmation/confirm': () => apiError(400, 'auth/invalid-confirmation-token', 'This confirmation link is invalid, already used or expired.'),
    });
    renderApp('/confirm-email?token=used', { pages });
    expect(await screen.findByRole('alert')).toHaveTextContent('This confirmation link is invalid, already used or expired.');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('says a link without its token is incomplete, and calls nothing', async () => {
    const { calls } = fakeGateway();
    renderApp('/confirm-email', { pages });
    expect(screen.getByRole('alert')).toHaveTextContent('This confirmation link is incomplete.');
    expect(calls.filter((c) => c.path === '/api/auth/email-confirmation/confirm')).toEqual([]);
  });
});
