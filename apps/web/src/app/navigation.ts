import type { AppAbility } from '@adp/permissions';
import { type NavMeta, routeAccess } from '../lib/route-meta.ts';
import { flattenRoutes } from './page-routes.tsx';

export interface NavItem {
  label: string;
  to: string;
  icon: NavMeta['icon'];
}

/** The menu is every route with `nav` meta that the ability lets this user open. */
export function navItemsFor(ability: AppAbility, userId: string | null): NavItem[] {
  return flattenRoutes()
    .filter(({ meta }) => meta.nav && routeAccess(meta, ability, true) === 'allow')
    .flatMap(({ path, meta }) => {
      const nav = meta.nav;
      if (!nav) return [];
      if (nav.to && !userId) return [];
      return [
        {
          nav,
          item: { label: nav.label, to: nav.to ? nav.to({ userId: userId ?? '' }) : path, icon: nav.icon },
        },
      ];
    })
    .sort((a, b) => a.nav.order - b.nav.order)
    .map(({ item }) => item);
}
