import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../../components/testUtils';
import { apiError, fakeGateway, noContent } from '../../../testing/fakeGateway';
import ResetPasswordPage, { PASSWORD_RESET_DONE } from './ResetPasswordPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const pages = [{ path: '/reset-password', element: <ResetPasswordPage /> }];

async function submit(password: string, confirm = password) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New password'), password);
  await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Set new password' }));
}

describe('ResetPasswordPage', () => {
  it('says a new password ends every session and API token, sets it with the token of the link and offers to log in', async () => {
    const { calls } = fakeGateway({ 'POST /api/auth/password-reset/confirm': noContent });
    renderApp('/reset-password?token=tok-1', { pages });
    expect(screen.getByText('Setting a new password signs you out everywhere and revokes every API token of your account.')).toBeInTheDocument();
    await submit('brand-new-pass-2');
    expect(await screen.findByText(PASSWORD_RESET_DONE)).toBeInTheDocument();
    expect(PASSWORD_RESET_DONE).toContain('every session was signed out and every API token revoked');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(calls).toContainEqual({ method: 'POST', path: '/api/auth/password-reset/confirm', body: { token: 'tok-1', password: 'brand-new-pass-2' } });
  });

  it('refuses two different passwords before calling the server', async () => {
    const { calls } = fakeGateway();
    renderApp('/reset-password?token=tok-1', { pages });
    await submit('brand-new-pass-2', 'brand-new-pass-3');
    expect(screen.getByRole('alert')).toHaveTextContent('The two passwords are not the same.');
    expect(calls).toEqual([]);
  });

  it("shows the server's words for a used or expired link and a way to get a new one", async () => {
    fakeGateway({ 'POST /api/auth/password-reset/confirm': () => apiError(400, 'auth/invalid-reset-token', 'This reset link is invalid or has expired.') });
    renderApp('/reset-password?token=old', { pages });
    await submit('brand-new-pass-2');
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/login');
  });
});
