import { type AppAbility, abilityFromRules, defineRulesFor } from '@adp/permissions';
import { AbilityProvider as CaslAbilityProvider, useAbility } from '@casl/react';
import { type ReactNode, useMemo } from 'react';
import type { AuthSnapshot } from './auth-storage.ts';
import { useAuth } from './use-auth.ts';

export { Can } from '@casl/react';
export { useAuth };

/** Unauthenticated visitors may only read Auth (the login and password pages). */
export function abilityForSnapshot(auth: AuthSnapshot): AppAbility {
  if (!auth.accessToken || !auth.rules) return abilityFromRules(defineRulesFor(null));
  return abilityFromRules(auth.rules);
}

/** Mounted by the route guard (app/ability-gate.tsx), which loads with every page but the guest ones. */
export function AbilityProvider({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const ability = useMemo(() => abilityForSnapshot(auth), [auth]);
  return <CaslAbilityProvider value={ability}>{children}</CaslAbilityProvider>;
}

export function useAppAbility(): AppAbility {
  return useAbility<AppAbility>();
}
