import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';
import { KEYS } from './storage';

export type Theme = 'light' | 'dark';
export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: string;
  kind: ToastKind;
  text: string;
}

export interface UiState {
  theme: Theme;
  toasts: Toast[];
}

const storedTheme = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEYS.theme);

const initialState: UiState = { theme: storedTheme === 'dark' ? 'dark' : 'light', toasts: [] };

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    themeToggled(state) {
      state.theme = state.theme === 'light' ? 'dark' : 'light';
    },
    toastShown: {
      reducer(state, action: PayloadAction<Toast>) {
        state.toasts.push(action.payload);
      },
      prepare(text: string, kind: ToastKind = 'info') {
        return { payload: { id: nanoid(), kind, text } };
      },
    },
    toastDismissed(state, action: PayloadAction<string>) {
      state.toasts = state.toasts.filter((t) => t.id !== action.payload);
    },
  },
  selectors: {
    selectTheme: (state) => state.theme,
    selectToasts: (state) => state.toasts,
  },
});

export const { themeToggled, toastShown, toastDismissed } = uiSlice.actions;
export const { selectTheme, selectToasts } = uiSlice.selectors;
/** The spec: toasts stay 5 seconds. */
export const TOAST_MS = 5_000;
