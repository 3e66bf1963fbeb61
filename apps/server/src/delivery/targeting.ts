import {
  type browsers,
  type devices,
  type operatingSystems,
  parseRange,
  type Targeting,
  type TargetingState,
  type WidgetType,
} from '@adp/contract';
import ipaddr from 'ipaddr.js';

/**
 * Targeting evaluation: whether a creative's rules (the contract's `targeting` schema) let it show for one
 * ad request. Delivery code only; the dashboard edits the rules and never evaluates them.
 */

export function ipInRange(ip: string, range: string): boolean {
  const r = parseRange(range);
  if (!r || !ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6' && r[0].kind() === 'ipv4' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  if (addr.kind() !== r[0].kind()) return false;
  return addr.match(r as [ipaddr.IPv4, number]);
}

/** What delivery knows about one ad request. Unknown facts are null. */
export interface TargetingRequest {
  /** The moment of the request; hours, weekdays and dates are read in UTC (server time). */
  now: Date;
  device: (typeof devices)[number] | null;
  os: (typeof operatingSystems)[number] | null;
  browser: (typeof browsers)[number] | null;
  browserLanguage: string | null;
  userLanguage: string | null;
  country: string | null;
  cityId: number | null;
  siteId: string | null;
  widgetType: WidgetType | null;
  siteLanguage: string | null;
  ip: string | null;
  /** Pixels whose audience the visitor is in. */
  audiences: readonly string[];
  dspPartnerId: string | null;
  prebidPartnerId: string | null;
  /** This visitor's impressions and clicks of this creative within the capping period. */
  seen: { impressions: number; clicks: number };
}

/**
 * One dimension's verdict: inactive passes; active passes when the request's value is listed; negative
 * passes when it is not. An unknown value fails "only these" and passes "all but these".
 */
function check<T>(
  dim: { state: TargetingState; values: readonly T[] },
  has: (v: T) => boolean,
  known: boolean,
): boolean {
  if (dim.state === 'inactive') return true;
  const listed = known && dim.values.some(has);
  return dim.state === 'active' ? listed : !listed;
}

const minutesOf = (hhmmText: string) => Number(hhmmText.slice(0, 2)) * 60 + Number(hhmmText.slice(3, 5));

/** Names the first dimension that rejects the request, or null when the creative may show. */
export function rejectedBy(t: Targeting, r: TargetingRequest): keyof Targeting | null {
  const day = r.now.toISOString().slice(0, 10);
  const minute = r.now.getUTCHours() * 60 + r.now.getUTCMinutes();
  const weekday = ((r.now.getUTCDay() + 6) % 7) + 1;
  if (t.start_date && day < t.start_date) return 'start_date';
  if (t.end_date && day > t.end_date) return 'end_date';
  const eq = <T>(value: T | null) => [(v: T) => v === value, value !== null] as const;
  const checks: [keyof Targeting, boolean][] = [
    ['dates', check(t.dates, (d) => day >= d.from && day <= d.to, true)],
    [
      'time',
      check(
        t.time,
        (w) => {
          const from = minutesOf(w.from);
          const to = minutesOf(w.to);
          return from <= to ? minute >= from && minute < to : minute >= from || minute < to;
        },
        true,
      ),
    ],
    ['hours', check(t.hours, (h) => h === r.now.getUTCHours(), true)],
    ['weekdays', check(t.weekdays, (d) => d === weekday, true)],
    ['days_of_month', check(t.days_of_month, (d) => d === r.now.getUTCDate(), true)],
    ['devices', check(t.devices, ...eq(r.device))],
    ['os', check(t.os, ...eq(r.os))],
    ['browsers', check(t.browsers, ...eq(r.browser))],
    ['browser_languages', check(t.browser_languages, ...eq(r.browserLanguage))],
    ['user_languages', check(t.user_languages, ...eq(r.userLanguage))],
    ['countries', check(t.countries, ...eq(r.country))],
    ['cities', check(t.cities, ...eq(r.cityId))],
    ['sites', check(t.sites, ...eq(r.siteId))],
    ['widget_types', check(t.widget_types, ...eq(r.widgetType))],
    ['site_languages', check(t.site_languages, ...eq(r.siteLanguage))],
    ['ips', check(t.ips, (range) => r.ip !== null && ipInRange(r.ip, range), r.ip !== null)],
    ['pixels', check(t.pixels, (p) => r.audiences.includes(p), true)],
    ['dsp_partners', check(t.dsp_partners, ...eq(r.dspPartnerId))],
    ['prebid_partners', check(t.prebid_partners, ...eq(r.prebidPartnerId))],
  ];
  for (const [name, ok] of checks) if (!ok) return name;
  const c = t.capping;
  if (c.state === 'active') {
    if (c.impressions !== null && r.seen.impressions >= c.impressions) return 'capping';
    if (c.clicks !== null && r.seen.clicks >= c.clicks) return 'capping';
  }
  return null;
}

/**
 * Whether a creative with this targeting may show for this request.
 * @example matches(defaultTargeting(), request) // true: nothing is targeted
 */
export function matches(t: Targeting, r: TargetingRequest): boolean {
  return rejectedBy(t, r) === null;
}
