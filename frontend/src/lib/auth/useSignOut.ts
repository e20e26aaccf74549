import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../store';
import { useLogOutMutation } from './api';
import { signedOut } from './authSlice';
import { useSession } from './hooks';

/**
 * Signs out on this device at once and goes to the landing page (or `to`); then tells identity to forget the refresh token.
 * The server call runs after the local sign-out so that a slow or failed call never keeps anyone signed in here,
 * not even if the page is reloaded or closed while it is under way.
 */
export function useSignOut(): { signOut: (to?: string) => Promise<void>; busy: boolean } {
  const session = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logOut, { isLoading }] = useLogOutMutation();
  const signOut = useCallback(async (to = '/') => {
    const refreshToken = session?.refreshToken;
    dispatch(signedOut());
    navigate(to);
    if (refreshToken) await logOut({ refreshToken }).unwrap().catch(() => undefined);
  }, [session, logOut, dispatch, navigate]);
  return { signOut, busy: isLoading };
}
