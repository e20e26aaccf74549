import { useAppSelector } from '../store';
import { selectSession, selectUser } from './authSlice';

/** The signed-in session, or null. */
export const useSession = () => useAppSelector(selectSession);
/** The signed-in user ({ uid, email, firstLogin }), or null when signed out. */
export const useUser = () => useAppSelector(selectUser);
