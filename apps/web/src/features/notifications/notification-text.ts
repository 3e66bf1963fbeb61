import type { Notification } from '@adp/contract';
import type { TFunction } from 'i18next';
import { formatDate, formatMoney } from '../../lib/format.ts';

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const num = (v: unknown) => (typeof v === 'number' ? v : Number(v) || 0);

/** A notification's text in the reader's language, filled from its type and payload. */
export function notificationText(n: Notification, t: TFunction<'notifications'>): string {
  const p = n.payload;
  switch (n.type) {
    case 'moderation': {
      const resource = t(`resources.${str(p.resource)}`, { defaultValue: str(p.resource) });
      const decided = t(p.decision === 'approved' ? 'moderation.approved' : 'moderation.rejected', {
        resource,
        name: str(p.name),
      });
      return p.reason ? `${decided} ${t('reason', { reason: str(p.reason) })}` : decided;
    }
    case 'low_balance':
      return t('low_balance', {
        name: str(p.name),
        balance: formatMoney(num(p.balance)),
        threshold: formatMoney(num(p.threshold)),
      });
    case 'low_account_balance':
      return t('low_account_balance', {
        balance: formatMoney(num(p.balance)),
        threshold: formatMoney(num(p.threshold)),
      });
    case 'adsense_income':
      return t('adsense_income', { sum: formatMoney(num(p.sum)) });
    case 'withdrawal': {
      const decided = t(p.status === 'paid' ? 'withdrawal.paid' : 'withdrawal.rejected', {
        sum: formatMoney(num(p.sum)),
      });
      return p.reason ? `${decided} ${t('reason', { reason: str(p.reason) })}` : decided;
    }
    case 'source_blocked': {
      const by = p.by === 'platform' ? 'platform' : 'advertiser';
      const what = p.widget_id ? 'widget' : 'site';
      const parts = [t(`source_blocked.${by}_${what}`, { site: str(p.site), widget: str(p.widget) })];
      if (p.reason) parts.push(t('reason', { reason: str(p.reason) }));
      parts.push(
        p.until
          ? t('source_blocked.until', { date: formatDate(str(p.until)) })
          : t('source_blocked.permanent'),
      );
      return parts.join(' ');
    }
    case 'nurl':
    case 'burl':
      return t(n.type, { campaign: n.campaign_id ?? '', price: formatMoney(n.price ?? 0) });
    default:
      return t('unknown', { type: n.type });
  }
}

/** Where a notification leads: the item it is about, or none. */
export function notificationLink(n: Notification): string | undefined {
  const p = n.payload;
  const user = n.user_id ?? '';
  switch (n.type) {
    case 'moderation':
      if (p.resource === 'site') return `/sites/${str(p.id)}`;
      if (p.resource === 'widget') return `/widgets/${str(p.id)}`;
      if (p.resource === 'campaign') return `/users/${user}/campaigns/${str(p.id)}`;
      // a creative's page is under its campaign (notifications written before it carried one lead nowhere)
      if (p.resource === 'banner' && n.campaign_id)
        return `/users/${user}/campaigns/${n.campaign_id}/creatives/${str(p.id)}`;
      return undefined;
    case 'low_balance':
      return n.campaign_id ? `/users/${user}/campaigns/${n.campaign_id}/payments` : undefined;
    case 'low_account_balance':
      return `/users/${user}/topup`;
    case 'withdrawal':
      return `/users/${user}/withdrawals`;
    case 'adsense_income':
      return `/users/${user}/transaction`;
    case 'source_blocked':
      return p.widget_id ? `/widgets/${str(p.widget_id)}` : `/sites/${str(p.site_id)}`;
    case 'nurl':
    case 'burl':
      return n.campaign_id ? `/users/${user}/campaigns/${n.campaign_id}` : undefined;
    default:
      return undefined;
  }
}
