import { act, render, screen } from '@testing-library/react';
import { fireEvent } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../lib/store';
import { TOAST_MS, toastShown } from '../lib/ui';
import { ToastHost } from './ToastHost';

afterEach(() => {
  vi.useRealTimers();
});

function renderHost() {
  const store = makeStore();
  render(
    <Provider store={store}>
      <ToastHost />
    </Provider>,
  );
  return store;
}

describe('ToastHost', () => {
  it('shows each toast in a polite status region and removes it after 5 seconds', () => {
    vi.useFakeTimers();
    const store = renderHost();
    act(() => {
      store.dispatch(toastShown('Still processing.'));
    });
    const region = screen.getByRole('status');
    expect(region).toHaveAttribute('aria-live', 'polite');
    expect(region).toHaveTextContent('Still processing.');
    act(() => vi.advanceTimersByTime(TOAST_MS - 100));
    expect(screen.getByText('Still processing.')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Still processing.')).not.toBeInTheDocument();
    expect(TOAST_MS).toBe(5000);
  });

  it('lets a person dismiss a toast at once', () => {
    const store = renderHost();
    act(() => {
      store.dispatch(toastShown('Contents copied to clipboard.', 'success'));
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Contents copied to clipboard.')).not.toBeInTheDocument();
  });
});
