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

/** `check` with "the request's value is listed" (an unknown value is never listed), without a closure. */
function checkEq<T>(dim: { state: TargetingState; values: readonly T[] }, value: T | null): boolean {
  if (dim.state === 'inactive') return true;
  let listed = false;
  if (value !== null)
    for (const v of dim.values)
      if (v === value) {
        listed = true;
        break;
      }
  return dim.state === 'active' ? listed : !listed;
}

const minutesOf = (hhmmText: string) => Number(hhmmText.slice(0, 2)) * 60 + Number(hhmmText.slice(3, 5));

/**
 * Names the first dimension that rejects the request, or null when the creative may show. Called for
 * every candidate creative of every request (widgets and bids): the dimensions are checked in order and
 * the first rejection returns, the date text is made only when a rule needs it, and an inactive dimension
 * costs one comparison.
 */
export function rejectedBy(t: Targeting, r: TargetingRequest): keyof Targeting | null {
  const now = r.now;
  let today: string | undefined;
  const day = () => {
    today ??= now.toISOString().slice(0, 10);
    return today;
  };
  if (t.start_date && day() < t.start_date) return 'start_date';
  if (t.end_date && day() > t.end_date) return 'end_date';
  if (t.dates.state !== 'inactive' && !check(t.dates, (d) => day() >= d.from && day() <= d.to, true))
    return 'dates';
  if (t.time.state !== 'inactive') {
    const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
    const inWindow = (w: { from: string; to: string }) => {
      const from = minutesOf(w.from);
      const to = minutesOf(w.to);
      return from <= to ? minute >= from && minute < to : minute >= from || minute < to;
    };
    if (!check(t.time, inWindow, true)) return 'time';
  }
  if (t.hours.state !== 'inactive' && !checkEq(t.hours, now.getUTCHours())) return 'hours';
  if (t.weekdays.state !== 'inactive' && !checkEq(t.weekdays, ((now.getUTCDay() + 6) % 7) + 1))
    return 'weekdays';
  if (t.days_of_month.state !== 'inactive' && !checkEq(t.days_of_month, now.getUTCDate()))
    return 'days_of_month';
  if (!checkEq(t.devices, r.device)) return 'devices';
  if (!checkEq(t.os, r.os)) return 'os';
  if (!checkEq(t.browsers, r.browser)) return 'browsers';
  if (!checkEq(t.browser_languages, r.browserLanguage)) return 'browser_languages';
  if (!checkEq(t.user_languages, r.userLanguage)) return 'user_languages';
  if (!checkEq(t.countries, r.country)) return 'countries';
  if (!checkEq(t.cities, r.cityId)) return 'cities';
  if (!checkEq(t.sites, r.siteId)) return 'sites';
  if (!checkEq(t.widget_types, r.widgetType)) return 'widget_types';
  if (!checkEq(t.site_languages, r.siteLanguage)) return 'site_languages';
  if (t.ips.state !== 'inactive') {
    const ip = r.ip;
    if (!check(t.ips, (range) => ip !== null && ipInRange(ip, range), ip !== null)) return 'ips';
  }
  if (t.pixels.state !== 'inactive' && !check(t.pixels, (p) => r.audiences.includes(p), true))
    return 'pixels';
  if (!checkEq(t.dsp_partners, r.dspPartnerId)) return 'dsp_partners';
  if (!checkEq(t.prebid_partners, r.prebidPartnerId)) return 'prebid_partners';
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
