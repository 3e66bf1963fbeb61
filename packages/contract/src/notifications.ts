import { z } from 'zod';
import { id, paged, pageQuery } from './common.ts';
import { moneyTotal } from './money.ts';

/**
 * What a notification reports. The exchange writes `nurl` (a win) and `burl` (a billing notice); the
 * platform writes the others in the transaction of the event they report: a moderator's decision, a
 * campaign's or an advertiser account's balance falling below the low-balance threshold, a withdrawal decided, a publisher's site or
 * widget blocked as a traffic source. The dashboard renders each type's text in the reader's language
 * from `payload` (nothing is stored in English).
 */
export const notificationTypes = [
  'nurl',
  'burl',
  'moderation',
  'low_balance',
  'low_account_balance',
  'withdrawal',
  'source_blocked',
  'adsense_income',
] as const;
export type NotificationType = (typeof notificationTypes)[number];
/** The exchange's notices: records of each win and charge, listed but not counted as unread. */
export const exchangeNotificationTypes = ['nurl', 'burl'] as const satisfies readonly NotificationType[];

export const moderatedResources = ['site', 'widget', 'campaign', 'banner'] as const;

/** The payload of each platform type (what the dashboard's texts are filled with). */
export const notificationPayloads = {
  moderation: z.object({
    resource: z.enum(moderatedResources),
    id,
    name: z.string(),
    decision: z.enum(['approved', 'rejected']),
    reason: z.string().nullable(),
  }),
  low_balance: z.object({ name: z.string(), balance: moneyTotal, threshold: moneyTotal }),
  /** The advertiser's account balance fell below LOW_ACCOUNT_BALANCE (told once per fall). */
  low_account_balance: z.object({ balance: moneyTotal, threshold: moneyTotal }),
  withdrawal: z.object({
    id,
    status: z.enum(['paid', 'rejected']),
    sum: moneyTotal,
    reason: z.string().nullable(),
  }),
  /**
   * The publisher is told which of its sites or widgets was blocked and whether by one advertiser's
   * campaign or by the platform, never which advertiser or campaign (the advertiser's reason neither).
   */
  source_blocked: z.object({
    by: z.enum(['advertiser', 'platform']),
    site_id: id,
    site: z.string(),
    widget_id: id.nullable(),
    widget: z.string().nullable(),
    reason: z.string().nullable(),
    until: z.string().nullable(),
  }),
  /** An approved AdSense import credited the user (publisher, its agency or referrer) `sum` in all. */
  adsense_income: z.object({ import_id: id, sum: moneyTotal }),
} as const;
export type NotificationPayloads = {
  [K in keyof typeof notificationPayloads]: z.infer<(typeof notificationPayloads)[K]>;
};

/**
 * A notification (GET /api/notifications). `price` is in currency units when the type has one. Every user
 * sees their own; admins also the exchange's `nurl` and `burl` of every campaign. `read_at` is null while
 * unread.
 */
export const notification = z.object({
  _id: id,
  type: z.string(),
  user_id: id.nullable(),
  campaign_id: id.nullable(),
  payload: z.record(z.string(), z.unknown()),
  price: moneyTotal.nullable(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notification>;
export const notificationQuery = pageQuery.extend({
  type: z.string().trim().max(50).optional(),
  /** `true`: only the unread ones. */
  unread: z.enum(['true', 'false']).optional(),
  /**
   * The exchange's per-bid notices (`nurl`, `burl`: one per exchange impression, so they would bury every
   * other notification): `include` (the default), `exclude` them, or `only` them.
   */
  exchange: z.enum(['include', 'exclude', 'only']).optional(),
});
export type NotificationsExchange = NonNullable<z.infer<typeof notificationQuery>['exchange']>;
export const notificationsPage = paged(notification);

/** PUT /api/notifications/{id}: marks one of the caller's own notifications read or unread. */
export const notificationUpdate = z.strictObject({ read: z.boolean() });
export type NotificationUpdate = z.infer<typeof notificationUpdate>;

/** GET /api/notifications/unread-count (the header's bell); POST /api/notifications/read-all answers `marked`. */
export const unreadCount = z.object({ count: z.number().int().min(0) });
export const markedRead = z.object({ marked: z.number().int().min(0) });
