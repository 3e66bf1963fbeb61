import { useSyncExternalStore } from 'react';
import { type AuthSnapshot, getAuthSnapshot, subscribeAuth } from './auth-storage.ts';

/** The stored session; kept apart from ability.tsx so the guest pages load without CASL. */
export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(subscribeAuth, getAuthSnapshot, getAuthSnapshot);
}
