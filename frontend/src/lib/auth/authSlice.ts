import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { loadSession, type Session } from './session';

export interface AuthState {
  session: Session | null;
}

const initialState: AuthState = { session: typeof localStorage === 'undefined' ? null : loadSession() };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(state, action: PayloadAction<Session>) {
      state.session = action.payload;
    },
    signedOut(state) {
      state.session = null;
    },
  },
  selectors: {
    selectSession: (state) => state.session,
    selectUser: (state) => state.session?.user ?? null,
  },
});

export const { signedIn, signedOut } = authSlice.actions;
export const { selectSession, selectUser } = authSlice.selectors;
