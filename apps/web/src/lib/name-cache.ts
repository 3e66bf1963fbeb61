import type { CampaignName, NamedEntity } from '@adp/contract';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { apiRequest } from './api-client.ts';
import { getAuthSnapshot, subscribeAuth } from './auth-storage.ts';
import { notifyError } from './notify.ts';

/** SPEC.md sections 4 and 9: cached names stay valid for an hour, then are fetched again. */
export const NAME_CACHE_TTL = 3_600_000;

type Kinds = { sites: NamedEntity; partners: NamedEntity; campaigns: CampaignName; dspDomains: NamedEntity };
export type NameKind = keyof Kinds;

interface Entry<T> {
  /** null: the server refused this id (422); kept like a name so the toast is not repeated every render. */
  value: T | null;
  expires: number;
}

const ttl = (kind: NameKind) => (kind === 'partners' ? Number.POSITIVE_INFINITY : NAME_CACHE_TTL);

/** `dspDomains` are per DSP partner: the key carries it (`<dspId>:<siteId>`). */
const lookups: { [K in NameKind]: (ids: string[], scope: string) => Promise<{ items: Kinds[K][] }> } = {
  sites: (ids) => apiRequest('/sites/names', { method: 'POST', json: { ids } }),
  partners: (ids) => apiRequest('/partners/names', { method: 'POST', json: { ids } }),
  campaigns: (ids) => apiRequest('/campaigns/names', { method: 'POST', json: { ids } }),
  dspDomains: (ids, dspId) =>
    apiRequest('/dsppartners/domains', { method: 'POST', json: { dsp_id: dspId, site_ids: ids } }),
};

/**
 * The dashboard's name cache: ids asked for in the same tick go out as one lookup per kind (and DSP
 * partner); a 422 shows each of its errors as a red toast titled Error (SPEC.md section 8).
 */
export function createNameCache(now: () => number = Date.now) {
  const entries = new Map<string, Entry<unknown>>();
  const pending = new Map<string, Promise<void>>();
  const queued = new Map<string, { kind: NameKind; scope: string; ids: Set<string> }>();
  const listeners = new Set<() => void>();
  let version = 0;

  const keyOf = (kind: NameKind, scope: string, id: string) => `${kind}|${scope}|${id}`;
  const changed = () => {
    version += 1;
    for (const l of listeners) l();
  };

  function fresh(key: string) {
    const e = entries.get(key);
    return e && e.expires > now() ? e : undefined;
  }

  async function run(kind: NameKind, scope: string, ids: string[]) {
    const expires = now() + ttl(kind);
    try {
      const { items } = await lookups[kind](ids, scope);
      for (const id of ids) entries.set(keyOf(kind, scope, id), { value: null, expires });
      for (const item of items) entries.set(keyOf(kind, scope, item._id), { value: item, expires });
    } catch (error) {
      notifyError(error);
      for (const id of ids) entries.set(keyOf(kind, scope, id), { value: null, expires });
    } finally {
      for (const id of ids) pending.delete(keyOf(kind, scope, id));
      changed();
    }
  }

  let scheduled: Promise<void> | null = null;
  function flush() {
    scheduled = null;
    const batches = [...queued.values()];
    queued.clear();
    for (const b of batches) {
      const ids = [...b.ids];
      const done = run(b.kind, b.scope, ids);
      for (const id of ids) pending.set(keyOf(b.kind, b.scope, id), done);
    }
  }

  function request(kind: NameKind, ids: readonly string[], scope = ''): Promise<void> {
    const unique = [...new Set(ids)];
    for (const id of unique) {
      const key = keyOf(kind, scope, id);
      if (fresh(key) || pending.has(key)) continue;
      const batch = `${kind}|${scope}`;
      const q = queued.get(batch) ?? { kind, scope, ids: new Set<string>() };
      q.ids.add(id);
      queued.set(batch, q);
    }
    // one timer per tick: every row's ids asked for while rendering join one request per kind
    if (queued.size && !scheduled)
      scheduled = new Promise((resolve) => setTimeout(() => resolve(flush()), 0));
    return (scheduled ?? Promise.resolve()).then(async () => {
      await Promise.all(unique.map((id) => pending.get(keyOf(kind, scope, id))));
    });
  }

  return {
    /** Starts a lookup of the ids that are missing or expired; resolves when they are known. */
    request,
    /** The cached entry, fresh or not (an expired name is still shown while it is fetched again). */
    peek<K extends NameKind>(kind: K, id: string, scope = ''): Kinds[K] | null | undefined {
      return entries.get(keyOf(kind, scope, id))?.value as Kinds[K] | null | undefined;
    },
    isFresh: (kind: NameKind, id: string, scope = '') => Boolean(fresh(keyOf(kind, scope, id))),
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => version,
    clear() {
      entries.clear();
      changed();
    },
  };
}
export type NameCache = ReturnType<typeof createNameCache>;

/** The dashboard's one cache; emptied whenever the logged-in user changes, so no one sees another's names. */
export const nameCache = createNameCache();
let cachedFor = getAuthSnapshot().userId;
subscribeAuth(() => {
  const userId = getAuthSnapshot().userId;
  if (userId === cachedFor) return;
  cachedFor = userId;
  nameCache.clear();
});

/**
 * Names of `ids` of one kind: a map id → entry (undefined while loading, null when refused).
 * @example const sites = useNames('sites', widgets.map((w) => w.site_id)); sites.get('7')?.name
 */
export function useNames<K extends NameKind>(
  kind: K,
  ids: readonly (string | null | undefined)[],
  scope = '',
  cache: NameCache = nameCache,
): Map<string, Kinds[K] | null | undefined> {
  const key = ids.filter(Boolean).join(',');
  const version = useSyncExternalStore(cache.subscribe, cache.version);
  const wanted = useMemo(() => (key ? [...new Set(key.split(','))] : []), [key]);
  const stale = wanted.some((id) => !cache.isFresh(kind, id, scope));
  // asks again whenever a name is missing or past its hour; the cache joins and batches the calls
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer (version) may leave names still missing
  useEffect(() => {
    if (stale) void cache.request(kind, wanted, scope);
  }, [stale, cache, kind, wanted, scope, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the cache changes in place; version says when
  return useMemo(() => {
    const out = new Map<string, Kinds[K] | null | undefined>();
    for (const id of wanted) out.set(id, cache.peek(kind, id, scope));
    return out;
  }, [version, wanted, kind, scope, cache]);
}
