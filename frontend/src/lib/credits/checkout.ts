import { useState } from 'react';
import type { CreditPackSize } from '@frametext/contracts/rules';
import { useAppDispatch } from '../store';
import { errorMessage } from '../api';
import { useCreateCheckoutSessionMutation } from './api';
import type { Pack } from './packs';
import { watchProfileAfterCheckout } from './profileWatch';

type Opener = Pick<Window, 'open'> & { location: Pick<Location, 'assign'> };

/** Opens the payment page in a new tab, or in this window when the browser blocks the new one (the spec). */
export function openCheckout(url: string, win: Opener = window): 'tab' | 'here' {
  const tab = win.open(url, '_blank');
  if (tab) {
    tab.opener = null;
    return 'tab';
  }
  win.location.assign(url);
  return 'here';
}

export interface Checkout {
  /** Asks for a payment page for the pack and opens it; the balance is then refetched every 5 s for 2 minutes. */
  choose(pack: Pack): Promise<void>;
  /** The pack whose payment page is being made. */
  pending: number | null;
  error: string | null;
  /** The payment page opened in another tab. */
  opened: boolean;
}

/** Buying a pack, the same way wherever packs are offered (Purchase Credits dialog, account, onboarding). */
export function useCheckout(): Checkout {
  const dispatch = useAppDispatch();
  const [createSession] = useCreateCheckoutSessionMutation();
  const [pending, setPending] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [opened, setOpened] = useState(false);

  const choose = async (pack: Pack) => {
    setError(null);
    setPending(pack.credits);
    try {
      const { url } = await createSession({ credits: pack.credits as CreditPackSize }).unwrap();
      watchProfileAfterCheckout(dispatch);
      setOpened(openCheckout(url) === 'tab');
    } catch (err) {
      console.error('checkout failed', err);
      setError(errorMessage(err, 'The payment page could not be opened. Please try again.'));
    } finally {
      setPending(null);
    }
  };

  return { choose, pending, error, opened };
}
