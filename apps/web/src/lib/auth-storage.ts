import type { AbilityRule } from '@adp/contract';
import { isRole, type Role } from '@adp/contract/constants';

/** localStorage keys shared with the rest of the dashboard and the e2e suite. */
export const storageKeys = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  userId: 'user_id',
  role: 'role',
  ability: 'ability',
} as const;

export interface Credentials {
  access_token: string;
  refresh_token: string;
  user_id: string;
  role: Role;
}

export interface AuthSnapshot {
  accessToken: string | null;
  userId: string | null;
  role: Role | null;
  rules: AbilityRule[] | null;
}

const listeners = new Set<() => void>();
let snapshot: AuthSnapshot | null = null;

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

const isNames = (value: unknown) =>
  typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/**
 * The stored rules were parsed with the contract's `abilityRule` before saving; this light check (no
 * zod on the login page) only refuses what another script may have written there.
 */
function isAbilityRule(value: unknown): value is AbilityRule {
  if (typeof value !== 'object' || value === null) return false;
  const rule = value as Record<string, unknown>;
  return (
    isNames(rule.action) &&
    isNames(rule.subject) &&
    (rule.fields === undefined || isNames(rule.fields)) &&
    (rule.inverted === undefined || typeof rule.inverted === 'boolean') &&
    (rule.conditions === undefined || (typeof rule.conditions === 'object' && rule.conditions !== null))
  );
}

function readRules(): AbilityRule[] | null {
  const raw = read(storageKeys.ability);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) && parsed.every(isAbilityRule) ? parsed : null;
  } catch {
    return null;
  }
}

function emit() {
  snapshot = null;
  for (const listener of listeners) listener();
}

export function getAccessToken(): string | null {
  return read(storageKeys.accessToken);
}

export function getRefreshToken(): string | null {
  return read(storageKeys.refreshToken);
}

/** A stable object for useSyncExternalStore: rebuilt only after a write. */
export function getAuthSnapshot(): AuthSnapshot {
  if (!snapshot) {
    const storedRole = read(storageKeys.role);
    snapshot = {
      accessToken: getAccessToken(),
      userId: read(storageKeys.userId),
      role: isRole(storedRole) ? storedRole : null,
      rules: readRules(),
    };
  }
  return snapshot;
}

export function subscribeAuth(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function saveCredentials(credentials: Credentials): void {
  localStorage.setItem(storageKeys.accessToken, credentials.access_token);
  localStorage.setItem(storageKeys.refreshToken, credentials.refresh_token);
  localStorage.setItem(storageKeys.userId, credentials.user_id);
  localStorage.setItem(storageKeys.role, credentials.role);
  emit();
}

export function saveAbility(rules: readonly AbilityRule[]): void {
  localStorage.setItem(storageKeys.ability, JSON.stringify(rules));
  emit();
}

export function clearCredentials(): void {
  for (const key of Object.values(storageKeys)) localStorage.removeItem(key);
  emit();
}

export function isLoggedIn(): boolean {
  return getAccessToken() !== null;
}

// Another tab logging out (or in) must be reflected here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || (Object.values(storageKeys) as string[]).includes(event.key)) emit();
  });
}
