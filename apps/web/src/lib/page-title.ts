import { useEffect, useSyncExternalStore } from 'react';

/**
 * The document title's page part. A page that shows something specific (a user, a campaign, another
 * owner's list) names it with usePageTitle; the root layout (app/root-layout.tsx) writes
 * "<that> · AdPlatform" and falls back to the matched route's meta title while no page names itself.
 * Only React: the guest pages' first load imports this module through the root layout.
 */
let current: { owner: object; text: string } | null = null;
const listeners = new Set<() => void>();

function set(next: { owner: object; text: string } | null) {
  current = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => current?.text;

/** The title the shown page gave itself, if any. */
export function usePageTitleText(): string | undefined {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * Names the shown page in the document title: pass the page's own heading (translated). Undefined (e.g.
 * while the record loads) leaves the route's title.
 */
export function usePageTitle(text: string | undefined): void {
  useEffect(() => {
    if (!text) return;
    const owner = {};
    set({ owner, text });
    return () => {
      // a later page may have named itself already: only the page that set the title clears it
      if (current?.owner === owner) set(null);
    };
  }, [text]);
}

/** usePageTitle as an element, for pages that render the heading in JSX only. */
export function PageTitle({ text }: { text: string | undefined }) {
  usePageTitle(text);
  return null;
}
