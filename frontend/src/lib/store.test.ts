import { describe, expect, it } from 'vitest';
import { creditsApi } from './credits/api';
import { signedIn, signedOut } from './auth/authSlice';
import { makeStore, persistAndSync } from './store';

const session = (uid: string) => ({ idToken: 'a.b.c', refreshToken: `r-${uid}`, expiresAt: Date.now() + 3_600_000, user: { uid, email: `${uid}@example.com`, firstLogin: false } });

describe('persistAndSync', () => {
  it('keeps the session in localStorage and forgets cached answers when the user changes', () => {
    const store = makeStore();
    const stop = persistAndSync(store);
    void store.dispatch(creditsApi.util.upsertQueryData('getProfile', undefined, { credits: 5 } as never));
    expect(Object.keys(store.getState().api.queries)).toHaveLength(1);
    store.dispatch(signedIn(session('u1')));
    expect(JSON.parse(localStorage.getItem('frametext.session')!).user.uid).toBe('u1');
    expect(Object.keys(store.getState().api.queries)).toHaveLength(0);
    store.dispatch(signedOut());
    expect(localStorage.getItem('frametext.session')).toBeNull();
    stop();
  });
});
