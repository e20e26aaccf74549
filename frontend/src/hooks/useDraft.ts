import { useState } from 'react';

/**
 * A value being edited (a slider being dragged, a number being typed) that starts again from `value` whenever
 * `value` changes from outside. Adjusted while rendering, as React advises, rather than in an effect that would
 * render twice.
 */
export function useDraft<T>(value: T): [T, (next: T) => void] {
  const [draft, setDraft] = useState(value);
  const [source, setSource] = useState(value);
  if (!Object.is(source, value)) {
    setSource(value);
    setDraft(value);
  }
  return [draft, setDraft];
}
