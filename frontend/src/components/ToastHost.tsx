import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../lib/store';
import { selectToasts, toastDismissed, TOAST_MS, type Toast } from '../lib/ui';

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(toastDismissed(toast.id)), TOAST_MS);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id]);
  return (
    <div className={`toast toast--${toast.kind}`}>
      <p className="toast__text">{toast.text}</p>
      <button type="button" className="btn btn--ghost btn--sm toast__close" aria-label="Dismiss notification" onClick={() => dispatch(toastDismissed(toast.id))}>
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}

/** The one live region for toasts (mounted once, by Layout); each toast goes after TOAST_MS. */
export function ToastHost() {
  const toasts = useAppSelector(selectToasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
