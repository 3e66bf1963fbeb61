import { type Role, roles } from '@adp/contract';
import { subject as as } from '@casl/ability';
import { describe, expect, test } from 'vitest';
import {
  type Action,
  abilityFor,
  abilityFromRules,
  defineRulesFor,
  ownedSubjects,
  type Subject,
  subjects,
} from './rules.ts';

const ME = '10';
const OTHER = '20';
const MEMBER = '30';

const writes: Action[] = ['create', 'update', 'delete'];
const adminOnly: Subject[] = [
  'AccountAdmin',
  'RevenueTerms',
  'Partner',
  'DspPartner',
  'DspPartnerBlacklist',
  'PrebidPartner',
  'RtbPartner',
  'Adsense',
  'Moderation',
  'TrafficBlock',
  'DecodeUrl',
  'System',
];
const readOnlyOwned: Subject[] = ['Payment', 'Transaction', 'Stats', 'Report', 'Notification', 'Referral'];

type Owner = 'mine' | 'member' | 'other';
const ownerId: Record<Owner, string> = { mine: ME, member: MEMBER, other: OTHER };

function record(s: Subject, owner: Owner) {
  const uid = ownerId[owner];
  if (s === 'User') return as(s, { _id: uid, role: owner === 'member' ? 'agencymember' : 'default' });
  if (s === 'Agency') return as(s, { user_id: uid, member_ids: [] as string[] });
  return as(s, { user_id: uid });
}

/**
 * The expected answer for one cell, written as the product rules read (SPEC.md section 6 and the
 * accounts issue), independently of how rules.ts builds them.
 */
function expected(role: Role, s: Subject, action: Action, owner: Owner): boolean {
  const clientRoles: Role[] = ['default', 'agency', 'agencymember'];
  const mine = owner === 'mine' || (role === 'agency' && owner === 'member');
  if (s === 'Auth') return action === 'read' || role === 'admin';
  if (role === 'admin') return true;
  if (role === 'adminreadonly') return action === 'read' || s === 'ACL';
  if (role === 'dummy') return false;
  if (s === 'ACL') return action === 'read';
  if (adminOnly.includes(s)) return false;
  if (s === 'Currency') return action === 'read';
  const readonly = role === 'defaultreadonly';
  if (s === 'User') {
    if (readonly) return action === 'read' && owner === 'mine';
    return (action === 'read' || action === 'update') && mine;
  }
  if (s === 'Agency') return role === 'agency' && owner === 'mine' && action !== 'manage';
  if (s === 'TopUp' || s === 'Withdrawal') {
    // an agency sees its members' top-ups and withdrawals (as their payments), never requests them
    if (action === 'read') return mine;
    return owner === 'mine' && action === 'create' && !readonly;
  }
  // a client marks its own notifications read (not its agency's members': the reader's own state)
  if (s === 'Notification' && action === 'update' && !readonly) return owner === 'mine';
  if (readOnlyOwned.includes(s)) return action === 'read' && mine;
  if ((ownedSubjects as readonly Subject[]).includes(s)) {
    if (action === 'manage') return false;
    return mine && (action === 'read' || (!readonly && clientRoles.includes(role)));
  }
  throw new Error(`no expectation for ${role} ${action} ${s}`);
}

describe('role x subject x action x ownership', () => {
  for (const role of roles) {
    test(`${role}`, () => {
      const ability = abilityFor({ id: ME, role, memberIds: role === 'agency' ? [MEMBER] : [] });
      const mismatches: string[] = [];
      for (const s of subjects) {
        for (const action of ['manage', 'create', 'read', 'update', 'delete'] as Action[]) {
          for (const owner of ['mine', 'member', 'other'] as Owner[]) {
            const target =
              s === 'Auth' || s === 'ACL' || s === 'Currency' || adminOnly.includes(s) ? s : record(s, owner);
            if (typeof target === 'string' && owner !== 'mine') continue;
            const got = ability.can(action, target);
            const want = expected(role, s, action, owner);
            if (got !== want) mismatches.push(`${action} ${s} (${owner}): got ${got}, want ${want}`);
          }
        }
      }
      expect(mismatches).toEqual([]);
    });
  }
});

test('a readonly role can never write anything but pass the admin gate', () => {
  for (const role of ['adminreadonly', 'defaultreadonly'] as const) {
    const ability = abilityFor({ id: ME, role });
    for (const s of subjects) {
      if (s === 'ACL') continue;
      for (const action of writes) {
        expect(
          ability.can(action, s === 'User' ? as(s, { _id: ME }) : as(s, { user_id: ME })),
          `${role} ${action} ${s}`,
        ).toBe(false);
      }
    }
  }
});

test('unauthenticated ability is read on Auth only', () => {
  const ability = abilityFor(null);
  expect(ability.can('read', 'Auth')).toBe(true);
  for (const s of subjects.filter((x) => x !== 'Auth')) expect(ability.can('read', s)).toBe(false);
});

test('an agency has no rights over a member account whose role is no longer agencymember', () => {
  const ability = abilityFor({ id: ME, role: 'agency', memberIds: [MEMBER] });
  expect(ability.can('update', as('User', { _id: MEMBER, role: 'agencymember' }))).toBe(true);
  for (const role of roles.filter((r) => r !== 'agencymember')) {
    expect(ability.can('read', as('User', { _id: MEMBER, role })), role).toBe(false);
    expect(ability.can('update', as('User', { _id: MEMBER, role })), role).toBe(false);
  }
});

test('rules survive the trip through JSON (the dashboard stores them)', () => {
  const rules = defineRulesFor({ id: ME, role: 'agency', memberIds: [MEMBER] });
  const restored = abilityFromRules(JSON.parse(JSON.stringify(rules)));
  expect(restored.can('update', as('Campaign', { user_id: MEMBER }))).toBe(true);
  expect(restored.can('update', as('Campaign', { user_id: OTHER }))).toBe(false);
});
