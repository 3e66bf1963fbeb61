import { type Role, roles } from '@adp/contract';
import { type Action, abilityFromRules, defineRulesFor, type Subject } from '@adp/permissions';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { routeAccess } from '../lib/route-meta.ts';
import { accountFixture, json, loginAs, meFixture, mockApi } from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';
import { flattenRoutes } from './page-routes.tsx';

/** subject x action -> roles that may open routes guarded by it (SPEC.md section 6). */
const allowed: Record<string, readonly Role[]> = {
  'Auth:read': roles,
  'ACL:manage': ['admin', 'adminreadonly'],
  'User:read': ['admin', 'adminreadonly', 'default', 'defaultreadonly', 'agency', 'agencymember'],
  // issue 4: owned publisher resources; readonly roles read, never write
  ...Object.fromEntries(
    // issue 5: owned advertiser resources (Campaign, Banner, Pixel, Landing) follow the same table
    [
      'Site',
      'Widget',
      'Promotion',
      'PromotionPage',
      'SocialGroup',
      'Campaign',
      'Banner',
      'Pixel',
      'Landing',
    ].flatMap((resource) => [
      [
        `${resource}:read`,
        ['admin', 'adminreadonly', 'default', 'defaultreadonly', 'agency', 'agencymember'],
      ],
      [`${resource}:create`, ['admin', 'default', 'agency', 'agencymember']],
      [`${resource}:update`, ['admin', 'default', 'agency', 'agencymember']],
    ]),
  ),
  'Moderation:update': ['admin'],
  'ACL:read': ['admin', 'adminreadonly', 'default', 'defaultreadonly', 'agency', 'agencymember'],
  'TopUp:create': ['admin', 'default', 'agency', 'agencymember'],
  'Agency:read': ['admin', 'adminreadonly', 'agency', 'agencymember'],
  'Agency:create': ['admin', 'agency'],
  'Agency:update': ['admin', 'agency'],
  // issue 11: DSP partners are admins' (readonly admins read)
  'DspPartner:read': ['admin', 'adminreadonly'],
  'DspPartner:create': ['admin'],
  'DspPartner:update': ['admin'],
  // issue 11: agency groups (/partners) and Prebid partners are admins' (readonly admins read)
  'Partner:read': ['admin', 'adminreadonly'],
  'Partner:create': ['admin'],
  'Partner:update': ['admin'],
  'PrebidPartner:read': ['admin', 'adminreadonly'],
  'PrebidPartner:create': ['admin'],
  'PrebidPartner:update': ['admin'],
  'RtbPartner:read': ['admin', 'adminreadonly'],
  'Adsense:read': ['admin', 'adminreadonly'],
  // issue 12: every role but dummy reads its own notifications (the header's bell links to /notifications)
  'Notification:read': ['admin', 'adminreadonly', 'default', 'defaultreadonly', 'agency', 'agencymember'],
};

const userIdOf = (role: Role) => String(roles.indexOf(role) + 1);

const guarded = flattenRoutes().filter((route) => route.meta.resource);

describe('route permissions table (role x subject x action)', () => {
  test('every guarded route is covered by the table', () => {
    for (const { meta } of guarded) {
      expect(Object.keys(allowed)).toContain(`${meta.resource}:${meta.action ?? 'read'}`);
    }
  });

  describe.each(roles)('%s', (role) => {
    const ability = abilityFromRules(defineRulesFor({ id: userIdOf(role), role }));

    test.each(
      guarded.map((route) => [route.path, route.meta.resource, route.meta.action ?? 'read'] as const),
    )('%s (%s %s)', (_path, resource, action) => {
      const expected = allowed[`${resource as Subject}:${action as Action}`]?.includes(role) ?? false;
      const decision = routeAccess({ resource, action }, ability, true);
      expect(decision).toBe(expected ? 'allow' : 'not-authorized');
    });

    test('the rendered guard agrees for the admin list and the own user page', async () => {
      const id = userIdOf(role);
      loginAs(role, id);
      mockApi({
        'GET /api/auth/me': () => json(meFixture(role, id)),
        [`GET /api/users/${id}`]: () => json(accountFixture({ _id: id, role, name: `User ${role}` })),
      });
      for (const [path, key] of [
        ['/users', 'ACL:manage'],
        [`/users/${id}`, 'User:read'],
      ] as const) {
        const { router, unmount } = renderApp(path);
        if (allowed[key]?.includes(role)) {
          await screen.findByRole('heading', { name: path === '/users' ? 'Users' : `User ${role}` });
          expect(router.state.location.pathname).toBe(path);
        } else {
          await waitFor(() =>
            expect(router.state.location.pathname).toBe('/pages/miscellaneous/not-authorized'),
          );
        }
        unmount();
      }
    });
  });

  test('a visitor may open only the Auth and public routes', () => {
    const visitor = abilityFromRules(defineRulesFor(null));
    for (const { meta } of guarded) {
      const expected = meta.resource === 'Auth' ? 'allow' : 'login';
      expect(routeAccess(meta, visitor, false)).toBe(expected);
    }
  });
});
