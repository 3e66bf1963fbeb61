import type { Role } from '@adp/contract';
import {
  AbilityBuilder,
  createMongoAbility,
  ForbiddenError,
  type ForcedSubject,
  type MongoAbility,
  type RawRuleOf,
} from '@casl/ability';

export const actions = ['manage', 'create', 'read', 'update', 'delete'] as const;
export type Action = (typeof actions)[number];

/**
 * Every resource of SPEC.md. `ACL` is the admin-area gate of the dashboard's routes (manage ACL =
 * may enter admin screens; read ACL = may edit one's own profile), never a data record.
 */
export const subjects = [
  'Auth',
  'ACL',
  'User',
  /** Admin-only account powers: roles, notes, referral percent, other users' passwords. */
  'AccountAdmin',
  /** Revenue terms (rates, payment method, billing widget, earn settings) and their change log: admins only. */
  'RevenueTerms',
  'Payment',
  'Transaction',
  'TopUp',
  'Withdrawal',
  'Referral',
  'Site',
  'Widget',
  'Promotion',
  'PromotionPage',
  'SocialGroup',
  'Pixel',
  'Campaign',
  'Banner',
  'Landing',
  'Agency',
  'Partner',
  'DspPartner',
  'DspPartnerBlacklist',
  'PrebidPartner',
  'RtbPartner',
  'Currency',
  'Notification',
  'Adsense',
  'Report',
  'Stats',
  'Moderation',
  'TrafficBlock',
  'DecodeUrl',
  'System',
] as const;
export type Subject = (typeof subjects)[number];

export type AppAbility = MongoAbility<[Action, Subject | 'all' | ForcedSubject<Subject>]>;
export type AppRule = RawRuleOf<AppAbility>;

/** Who the rules are built for. `memberIds` are the users of the agencies an `agency` user owns. */
export interface AbilityUser {
  id: string;
  role: Role;
  memberIds?: readonly string[];
}

const crud: Action[] = ['create', 'read', 'update', 'delete'];

/** Resources a client owns through `user_id`. */
export const ownedSubjects = [
  'Site',
  'Widget',
  'Promotion',
  'PromotionPage',
  'SocialGroup',
  'Pixel',
  'Campaign',
  'Banner',
  'Landing',
] as const satisfies readonly Subject[];

/** Records a client may only look at (they are written by the platform, not by the client). */
const ownedReadOnly = ['Payment', 'Transaction', 'Stats', 'Report', 'Notification', 'Referral'] as const;

/**
 * The CASL rule list of one role. The server checks every route with it and the dashboard stores it
 * (`/api/auth/me` → `ability`) to guard routes and hide controls.
 * @example defineRulesFor({ id: '7', role: 'default' }) // [{action:'read', subject:'Auth'}, ...]
 */
export function defineRulesFor(user: AbilityUser | null): AppRule[] {
  // built untyped: conditions name record fields (user_id, _id) that the subject strings cannot describe
  const { can, rules } = new AbilityBuilder<MongoAbility>(createMongoAbility);
  can('read', 'Auth');
  if (!user) return rules as AppRule[];
  const own = { user_id: user.id };
  const self = { _id: user.id };
  switch (user.role) {
    case 'dummy':
      break;
    case 'admin':
      can('manage', 'all');
      break;
    case 'adminreadonly':
      can('read', 'all');
      can('manage', 'ACL');
      break;
    case 'default':
    case 'agencymember':
    case 'agency': {
      can('read', 'ACL');
      can(['read', 'update'], 'User', self);
      can('read', 'Currency');
      can('create', ['TopUp', 'Withdrawal'], own);
      can('read', ['TopUp', 'Withdrawal'], own);
      can('read', [...ownedReadOnly], own);
      // marking one's own notifications read (a readonly role never writes, not even that)
      can('update', 'Notification', own);
      can(crud, [...ownedSubjects], own);
      if (user.role === 'agency') {
        can(crud, 'Agency', own);
        const members = { $in: [...(user.memberIds ?? [])] };
        // rights over a member's account hold only while its role is agencymember (a member made
        // admin must not be renamed, re-addressed and taken over by its former agency)
        can(['read', 'update'], 'User', { _id: members, role: 'agencymember' });
        can(crud, [...ownedSubjects], { user_id: members });
        // a member's money is the agency's to see (its payments and transactions, its top-ups and
        // withdrawals), not to request: those stay the member's own
        can('read', ['TopUp', 'Withdrawal', ...ownedReadOnly], { user_id: members });
      }
      if (user.role === 'agencymember') can('read', 'Agency', { member_ids: user.id });
      break;
    }
    case 'defaultreadonly':
      can('read', 'ACL');
      can('read', 'User', self);
      can('read', 'Currency');
      can('read', ['TopUp', 'Withdrawal', ...ownedReadOnly, ...ownedSubjects], own);
      break;
  }
  return rules as AppRule[];
}

/** @example abilityFor({ id: '1', role: 'admin' }).can('delete', 'Site') // true */
export function abilityFor(user: AbilityUser | null): AppAbility {
  return createMongoAbility<AppAbility>(defineRulesFor(user));
}

/** Builds an ability from rules received over the wire (the dashboard's stored copy). */
export function abilityFromRules(rules: readonly unknown[]): AppAbility {
  return createMongoAbility<AppAbility>(rules as AppRule[]);
}

/**
 * Throws CASL's ForbiddenError (answered 403) unless the ability allows the action.
 * @example assertCan(req.ability, 'create', 'Campaign')
 */
export function assertCan(
  ability: AppAbility,
  action: Action,
  target: Subject | ForcedSubject<Subject>,
): void {
  ForbiddenError.from(ability).throwUnlessCan(action, target);
}
