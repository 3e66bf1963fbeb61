import { type AppAbility, abilityFromRules, defineRulesFor } from '@adp/permissions';
import { AbilityProvider as CaslAbilityProvider, useAbility } from '@casl/react';
import { type ReactNode, useMemo, useSyncExternalStore } from 'react';
import { type AuthSnapshot, getAuthSnapshot, subscribeAuth } from './auth-storage.ts';

export { Can } from '@casl/react';

/** Unauthenticated visitors may only read Auth (the login and password pages). */
export function abilityForSnapshot(auth: AuthSnapshot): AppAbility {
  if (!auth.accessToken || !auth.rules) return abilityFromRules(defineRulesFor(null));
  return abilityFromRules(auth.rules);
}

export function useAuth(): AuthSnapshot {
  return useSyncExternalStore(subscribeAuth, getAuthSnapshot, getAuthSnapshot);
}

export function AbilityProvider({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const ability = useMemo(() => abilityForSnapshot(auth), [auth]);
  return <CaslAbilityProvider value={ability}>{children}</CaslAbilityProvider>;
}

export function useAppAbility(): AppAbility {
  return useAbility<AppAbility>();
}
