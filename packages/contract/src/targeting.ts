import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { id, patchOf } from './common.ts';
import { countryCode, languageCode } from './sites.ts';
import { addDays } from './stats.ts';
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

/**
 * A last day before the first one can never match: "must be after" the day before the first day, so the
 * message names a date the field may take.
 */
function endNotBefore(ctx: z.core.$RefinementCtx, first: string, last: string, path: PropertyKey[]) {
  if (last < first)
    ctx.addIssue({ code: 'custom', path, params: { key: 'after', date: addDays(first, -1) } });
}

const dateRange = z
  .strictObject({ from: isoDate, to: isoDate })
  .superRefine((r, ctx) => endNotBefore(ctx, r.from, r.to, ['to']));

/** The rule set of a creative (SPEC.md section 3 "Creative"): one typed structure for editor and delivery. */
export const targeting = z
  .strictObject({
    /** The creative runs only between these dates (inclusive, server time); null = open. */
    start_date: isoDate.nullable().default(null),
    end_date: isoDate.nullable().default(null),
    /** Specific date ranges. */
    dates: dimension(dateRange, 100),
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
  })
  .superRefine((t, ctx) => {
    if (t.start_date && t.end_date) endNotBefore(ctx, t.start_date, t.end_date, ['end_date']);
  });
export type Targeting = z.infer<typeof targeting>;
export const defaultTargeting = (): Targeting => targeting.parse({});

/**
 * A creative's targeting as an update sends it: every dimension optional, and each dimension's own fields
 * too, without their defaults, so `{"countries": {"values": ["DE"]}}` changes the list and keeps the stored
 * state (the server merges it over the stored dimension: apps/server/src/lib/merge-block.ts).
 */
export const targetingPatch = patchOf(
  targeting,
  Object.fromEntries(
    Object.entries(targeting.shape).flatMap(([key, field]) => {
      const inner = field instanceof z.ZodDefault ? field.unwrap() : field;
      return inner instanceof z.ZodObject ? [[key, patchOf(inner as z.ZodObject)]] : [];
    }),
  ),
);
