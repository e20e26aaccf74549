import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../components/testUtils';
import { apiError, fakeGateway, json, type Handler } from '../../testing/fakeGateway';
import { ApiTokensSection } from './components/ApiTokensSection';
import { CHANGE_ENDS_ACCESS, ChangePasswordSection, NO_PASSWORD, PASSWORD_CHANGED } from './components/ChangePasswordSection';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const NEW_SESSION = { idToken: 'x.eyJzdWIiOiJ1MSIsIm4iOjJ9.z', refreshToken: 'refresh-2', expiresIn: 600, user: { uid: 'u1', email: 'ada@example.com', firstLogin: false } };
const noTokens = () => json({ tokens: [], limit: 20 });
const oldToken = { id: '22222222-2222-2222-2222-222222222222', name: 'old laptop', scope: 'read', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: null };

function setup(routes: Record<string, Handler>, proof = 'password') {
  const api = fakeGateway({ 'GET /api/auth/reauthentication': () => json({ proof, recentSignInMinutes: 5 }), ...routes });
  const user = userEvent.setup();
  const element = (
    <>
      <ChangePasswordSection />
      <ApiTokensSection />
    </>
  );
  const app = renderApp('/account', { session: testSession, pages: [{ path: '/account', element }] });
  return { ...api, ...app, user };
}

async function fill(user: ReturnType<typeof userEvent.setup>, current: string, next: string, confirm = next) {
  if (current) await user.type(screen.getByLabelText('Current password'), current);
  if (next) await user.type(screen.getByLabelText('New password'), next);
  if (confirm) await user.type(screen.getByLabelText('Confirm new password'), confirm);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('Change password on the Account page', () => {
  it('says it ends every session and token, changes it, keeps this tab signed in with the new session and shows the tokens gone', async () => {
    let revoked = false;
    const { calls, requests, user, store } = setup({
      'POST /api/auth/password-change': () => {
        revoked = true;
        return json(NEW_SESSION);
      },
      'GET /api/auth/api-tokens': () => json({ tokens: revoked ? [] : [oldToken], limit: 20 }),
    });
    expect(await screen.findByText(CHANGE_ENDS_ACCESS)).toBeInTheDocument();
    expect(await screen.findByText('old laptop')).toBeInTheDocument();

    await fill(user, 'old password 1', 'new password 2');
    expect(await screen.findByText(PASSWORD_CHANGED)).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/auth/password-change')?.body).toEqual({ currentPassword: 'old password 1', newPassword: 'new password 2' });
    expect(store.getState().auth.session).toMatchObject({ idToken: NEW_SESSION.idToken, refreshToken: 'refresh-2' });
    expect(screen.getByLabelText('Current password')).toHaveValue('');
    // The list is fetched again, with the new session, and the revoked token is gone.
    expect(await screen.findByText('You have no API tokens.')).toBeInTheDocument();
    const lastList = requests.filter((r) => r.method === 'GET' && r.url.endsWith('/api/auth/api-tokens')).at(-1)!;
    expect(lastList.headers.get('authorization')).toBe(`Bearer ${NEW_SESSION.idToken}`);
  }, 20_000);

  it('checks the two new passwords match before calling, and shows the server’s words for a wrong current one', async () => {
    const wrong = () => apiError(401, 'auth/invalid-credential', 'That is not your current password. Please type it again.');
    const { calls, user, store } = setup({ 'POST /api/auth/password-change': wrong, 'GET /api/auth/api-tokens': noTokens });
    await screen.findByText(CHANGE_ENDS_ACCESS);
    await fill(user, 'old password 1', 'new password 2', 'new password 3');
    expect(screen.getByRole('alert')).toHaveTextContent('The two new passwords are not the same.');
    expect(calls.filter((c) => c.path === '/api/auth/password-change')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new password 2');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That is not your current password. Please type it again.');
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/auth/password-change')).toHaveLength(1));
    // Still signed in with the same session.
    expect(store.getState().auth.session?.refreshToken).toBe(testSession.refreshToken);
  }, 20_000);

  it('an account that signs in with Google only is told how to set a password instead', async () => {
    setup({ 'GET /api/auth/api-tokens': noTokens }, 'recent-sign-in');
    expect(await screen.findByText(NO_PASSWORD)).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });
});
