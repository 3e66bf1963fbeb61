import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { id } from './common.ts';
import { countryCode, languageCode } from './sites.ts';
import { widgetType } from './widgets.ts';

/** Every targeting dimension is off, "only these" (active) or "all but these" (negative). */
export const targetingState = z.enum(['inactive', 'active', 'negative']);
export type TargetingState = z.infer<typeof targetingState>;

const dimension = <T extends z.ZodType>(value: T, max = 1000) =>
  z
    .strictObject({ state: targetingState.default('inactive'), values: z.array(value).max(max).default([]) })
    // a missing dimension is inactive; a fresh object each time, so no parse shares a values array
    .default(() => ({ state: 'inactive' as const, values: [] }));

const isoDate = z.iso.date();
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { message: 'invalid' });

export const devices = ['desktop', 'mobile', 'tablet', 'tv'] as const;
export const operatingSystems = ['windows', 'macos', 'linux', 'android', 'ios', 'chromeos', 'other'] as const;
export const browsers = [
  'chrome',
  'firefox',
  'safari',
  'edge',
  'opera',
  'yandex',
  'samsung',
  'other',
] as const;

/** An IPv4/IPv6 address or CIDR range, normalised. */
export const ipRange = z
  .string()
  .trim()
  .max(64)
  .refine((s) => parseRange(s) !== null, { message: 'invalid' });

/**
 * Parses an address or CIDR range; a bare address is a /32 (IPv4) or /128 (IPv6) range.
 * @example parseRange('10.0.0.0/8') // [IPv4 10.0.0.0, 8]
 */
export function parseRange(s: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  // ipaddr.js also reads '010.0.0.1' (octal, = 8.0.0.1), '1.2.3' and '12345': in a CSV row those are typos
  const address = s.split('/')[0] ?? '';
  if (!address.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(address)) return null;
  try {
    if (s.includes('/')) return ipaddr.parseCIDR(s);
    const addr = ipaddr.parse(s);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return null;
  }
}

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

/** The rule set of a creative (SPEC.md section 3 "Creative"): one typed structure for editor and delivery. */
export const targeting = z.strictObject({
  /** The creative runs only between these dates (inclusive, server time); null = open. */
  start_date: isoDate.nullable().default(null),
  end_date: isoDate.nullable().default(null),
  /** Specific date ranges. */
  dates: dimension(z.strictObject({ from: isoDate, to: isoDate }), 100),
  /** Time-of-day windows (server time), e.g. 09:00–18:00; a window may wrap past midnight. */
  time: dimension(z.strictObject({ from: hhmm, to: hhmm }), 24),
  hours: dimension(z.int().min(0).max(23), 24),
  /** ISO weekdays: 1 = Monday … 7 = Sunday. */
  weekdays: dimension(z.int().min(1).max(7), 7),
  days_of_month: dimension(z.int().min(1).max(31), 31),
  devices: dimension(z.enum(devices)),
  os: dimension(z.enum(operatingSystems)),
  browsers: dimension(z.enum(browsers)),
  browser_languages: dimension(languageCode),
  user_languages: dimension(languageCode),
  countries: dimension(countryCode),
  /** GeoNames city ids. */
  cities: dimension(z.int().positive()),
  sites: dimension(id),
  widget_types: dimension(widgetType),
  site_languages: dimension(languageCode),
  ips: dimension(ipRange, 10_000),
  /** Remarketing: the visitor is (active) or is not (negative) in the audience of one of these pixels. */
  pixels: dimension(id, 100),
  dsp_partners: dimension(id),
  prebid_partners: dimension(id),
  /** Frequency capping per visitor; a creative over its cap does not show. */
  capping: z
    .strictObject({
      state: z.enum(['inactive', 'active']).default('inactive'),
      impressions: z.int().min(1).max(10_000).nullable().default(null),
      clicks: z.int().min(1).max(10_000).nullable().default(null),
      period_hours: z
        .int()
        .min(1)
        .max(24 * 90)
        .default(24),
    })
    .default({ state: 'inactive', impressions: null, clicks: null, period_hours: 24 }),
});
export type Targeting = z.infer<typeof targeting>;
export const defaultTargeting = (): Targeting => targeting.parse({});

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
  widgetType: z.infer<typeof widgetType> | null;
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
