import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiToken } from '@frametext/contracts';
import { renderApp, testSession } from '../../components/testUtils';
import { apiError, fakeGateway, json, noContent } from '../../testing/fakeGateway';
import { ApiTokensSection, PASSWORD_NEEDED, SHOWN_ONCE } from './components/ApiTokensSection';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TOKEN = `ftpat_${'1'.repeat(32)}_${'s'.repeat(43)}`;

const WRONG_PASSWORD = 'That is not your password. Enter the password you sign in with to create an API token.';

/** identity as the section meets it: the tokens, what creating one needs (`proof`), and the password 'my password 1'. */
function server(initial: ApiToken[] = [], proof: 'password' | 'recent-sign-in' | 'sign-in-again' = 'password') {
  let tokens = [...initial];
  return fakeGateway({
    'GET /api/auth/api-tokens': () => json({ tokens, limit: 20 }),
    'GET /api/auth/reauthentication': () => json({ proof, recentSignInMinutes: 5 }),
    'POST /api/auth/api-tokens': (_req, body) => {
      const { name, scope, password } = body as { name: string; scope: 'read' | 'upload'; password?: string };
      if (proof === 'password' && password !== 'my password 1') return apiError(401, 'auth/invalid-credential', WRONG_PASSWORD);
      const apiToken: ApiToken = { id: '11111111-1111-1111-1111-111111111111', name, scope, createdAt: '2026-11-25T10:00:00.000Z', lastUsedAt: null };
      tokens = [apiToken, ...tokens];
      return json({ token: TOKEN, apiToken }, 201);
    },
    'DELETE /api/auth/api-tokens/22222222-2222-2222-2222-222222222222': () => {
      tokens = tokens.filter((t) => t.id !== '22222222-2222-2222-2222-222222222222');
      return noContent();
    },
  });
}

const render = () => renderApp('/account', { session: testSession, pages: [{ path: '/account', element: <ApiTokensSection /> }] });

describe('API tokens on the Account page', () => {
  it('creates a token with a name, a scope and the password, shows it once with a copy button, and lists it as never used', async () => {
    const { calls } = server();
    // user-event puts a clipboard of its own on navigator.
    const user = userEvent.setup();
    render();
    expect(await screen.findByText('You have no API tokens.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Give the token a name');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText('Token name'), 'nightly export');
    await user.click(screen.getByRole('radio', { name: /Read and upload/ }));
    // The password first: without it nothing is sent; a wrong one shows the server's words.
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(screen.getByRole('alert')).toHaveTextContent(PASSWORD_NEEDED);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    await user.type(screen.getByLabelText('Your password'), 'wrong password 2');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(WRONG_PASSWORD);
    await user.clear(screen.getByLabelText('Your password'));
    await user.type(screen.getByLabelText('Your password'), 'my password 1');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('status', { name: 'New API token' });
    expect(shown).toHaveTextContent(SHOWN_ONCE);
    expect(within(shown).getByText(TOKEN)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ name: 'nightly export', scope: 'upload', password: 'my password 1' });
    expect(screen.getByLabelText('Your password')).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
    const list = await screen.findByRole('list', { name: 'Your API tokens' });
    expect(within(list).getByText('nightly export')).toBeInTheDocument();
    expect(within(list).getByText('Read and upload')).toBeInTheDocument();
    expect(within(list).getByText(/Never used/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Done, I have copied it' }));
    expect(screen.queryByText(TOKEN)).not.toBeInTheDocument();
    // Typing a name key by key is slow on a busy machine.
  }, 30_000);

  it('an account that signs in with Google creates one without a password right after signing in', async () => {
    const { calls } = server([], 'recent-sign-in');
    const user = userEvent.setup();
    render();
    expect(await screen.findByText(/You signed in with Google a moment ago/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Your password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Token name'), 'ci');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByRole('status', { name: 'New API token' });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'ci', scope: 'read' });
  }, 20_000);

  it('an account that signs in with Google is asked to sign in again once its sign-in is older than 5 minutes', async () => {
    const { calls } = server([], 'sign-in-again');
    const user = userEvent.setup();
    const { router } = render();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('needs a sign-in from the last 5 minutes');
    expect(screen.getByRole('button', { name: 'Create token' })).toBeDisabled();
    await user.click(within(alert).getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(calls.filter((c) => c.path === '/api/auth/api-tokens' && c.method === 'POST')).toHaveLength(0);
  });

  it('revokes a token only after a confirmation', async () => {
    const { calls } = server([{ id: '22222222-2222-2222-2222-222222222222', name: 'old laptop', scope: 'read', createdAt: '2026-11-01T10:00:00.000Z', lastUsedAt: '2026-11-20T08:30:00.000Z' }]);
    const user = userEvent.setup();
    render();
    expect(await screen.findByText(/Last used Nov 20, 2026/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke old laptop' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke old laptop' }));
    await user.click(screen.getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(screen.getByText('You have no API tokens.')).toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
