import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { useDispatch, useSelector } from 'react-redux';
import { api } from './api';
import { KEYS } from './storage';
import { authSlice, signedIn, signedOut } from './auth/authSlice';
import { loadSession, saveSession } from './auth/session';
import { uiSlice } from './ui';

const rootReducer = combineSlices(api, authSlice, uiSlice);
export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloadedState?: Partial<RootState>) {
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();

/** Keeps the session and theme in localStorage, and follows sign-ins and sign-outs made in other tabs. */
export function persistAndSync(store: AppStore): () => void {
  let last = store.getState();
  const unsubscribe = store.subscribe(() => {
    const now = store.getState();
    const before = last;
    // Updated before dispatching below: the dispatch calls this listener again.
    last = now;
    if (now.ui.theme !== before.ui.theme) localStorage.setItem(KEYS.theme, now.ui.theme);
    if (now.auth.session !== before.auth.session) {
      saveSession(now.auth.session);
      // A different user (or none): forget every cached answer of the previous one.
      if (now.auth.session?.user.uid !== before.auth.session?.user.uid) store.dispatch(api.util.resetApiState());
    }
  });
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEYS.session) return;
    const session = loadSession();
    store.dispatch(session ? signedIn(session) : signedOut());
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}
