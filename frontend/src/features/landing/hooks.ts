import { useGetPublicConfigQuery } from '../../lib/credits/api';

/**
 * The free-credit grant as the server reports it, or null until it is known: the page says nothing about free
 * credits rather than a figure that might be wrong.
 */
export function useFreeCredits(): number | null {
  const { data } = useGetPublicConfigQuery();
  return data ? data.freeCredits : null;
}
