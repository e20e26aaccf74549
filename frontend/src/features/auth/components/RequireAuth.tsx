import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useSession } from '../../../lib/auth/hooks';

/** The spec: signed-out visits to signed-in pages go to the landing page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!session) return <Navigate to="/" replace />;
  return <>{children}</>;
}
