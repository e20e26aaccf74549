import { describe, expect, it, vi } from 'vitest';
import { openCheckout } from './checkout';

describe('openCheckout', () => {
  it('opens the payment page in a new tab that cannot reach back into the app', () => {
    const tab = { opener: {} };
    const win = { open: vi.fn(() => tab as unknown as Window), location: { assign: vi.fn() } };
    expect(openCheckout('https://pay.example.com/s/1', win)).toBe('tab');
    expect(win.open).toHaveBeenCalledWith('https://pay.example.com/s/1', '_blank');
    expect(tab.opener).toBeNull();
    expect(win.location.assign).not.toHaveBeenCalled();
  });

  it('goes there in the current window when the browser blocks the new tab', () => {
    const win = { open: vi.fn(() => null), location: { assign: vi.fn() } };
    expect(openCheckout('https://pay.example.com/s/1', win)).toBe('here');
    expect(win.location.assign).toHaveBeenCalledWith('https://pay.example.com/s/1');
  });
});
