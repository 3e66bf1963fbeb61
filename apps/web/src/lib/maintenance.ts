import { useEffect, useState, useSyncExternalStore } from 'react';

/**
 * The maintenance switch as the dashboard meets it: an API answer `503 {error: 'maintenance'}` (only
 * non-admins get one) marks it, and the app shows the under-maintenance page instead of any route.
 * Visitors without a session ask `GET /api/system/maintenance` (public). No zod or contract here: the
 * guest pages load this module.
 */
let blocked = false;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function markMaintenance(): void {
  if (blocked) return;
  blocked = true;
  emit();
}

export function clearMaintenance(): void {
  if (!blocked) return;
  blocked = false;
  emit();
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => blocked;

/** Whether an API answer said the platform is under maintenance for this visitor. */
export function useMaintenanceBlocked(): boolean {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * The public switch: true when on, false when off or unknown (a failed check never locks anyone out).
 * The server lets browsers keep the answer for 30 s, so page loads one after another ask it once;
 * `fresh` asks past that cache (the under-maintenance page's re-check: is it over now?). `no-cache`, not
 * `no-store`: the server's answer also replaces the cached one, so the page loaded after "it is over" does
 * not take the stale "on" from the cache and show maintenance again (e2e/admin-tools.test.ts checks both).
 */
export async function fetchMaintenance(fresh = false): Promise<boolean> {
  try {
    const response = await fetch('/api/system/maintenance', {
      headers: { Accept: 'application/json' },
      ...(fresh ? { cache: 'no-cache' as const } : {}),
    });
    if (!response.ok) return false;
    const body = (await response.json()) as { enabled?: unknown };
    return body.enabled === true;
  } catch {
    return false;
  }
}

/** The public switch for a visitor without a session, asked once per page load; null while unknown. */
let publicState: Promise<boolean> | null = null;
export function usePublicMaintenance(ask: boolean): boolean | null {
  const [state, setState] = useState<boolean | null>(null);
  useEffect(() => {
    if (!ask) return;
    let live = true;
    publicState ??= fetchMaintenance();
    void publicState.then((on) => {
      if (live) setState(on);
    });
    return () => {
      live = false;
    };
  }, [ask]);
  return ask ? state : null;
}

/** Forgets the public answer (after the switch was seen to change). */
export function forgetPublicMaintenance(): void {
  publicState = null;
}
