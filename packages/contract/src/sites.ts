import { z } from 'zod';
import { httpUrl, id, optionalHttpUrl, patchOf, status } from './common.ts';
import { money, percent } from './money.ts';
import { isTimeZone } from './stats.ts';
import { moderation } from './widgets.ts';

/** Site categories (IAB-style content verticals), the values of Site.category. */
export const siteCategories = [
  'arts_entertainment',
  'automotive',
  'business',
  'careers',
  'education',
  'family_parenting',
  'health_fitness',
  'food_drink',
  'hobbies_interests',
  'home_garden',
  'law_government_politics',
  'news',
  'personal_finance',
  'society',
  'science',
  'pets',
  'sports',
  'style_fashion',
  'technology_computing',
  'travel',
  'real_estate',
  'shopping',
  'religion_spirituality',
  'gaming',
  'movies',
  'music',
  'television',
  'books_literature',
  'celebrity_gossip',
  'humor',
  'crypto',
  'investing',
  'insurance',
  'banking',
  'beauty',
  'weddings',
  'dating',
  'parenting_babies',
  'medical_health',
  'weight_loss',
  'outdoors',
  'photography',
  'diy_crafts',
  'local_news',
  'world_news',
  'weather',
  'environment',
  'history',
  'military',
  'adult',
  'other',
] as const;
export const siteCategory = z.enum(siteCategories);

/** Two-letter ISO 3166-1 country code. */
export const countryCode = z.string().regex(/^[A-Z]{2}$/, { message: 'invalid' });
/** Two-letter ISO 639-1 language code. */
export const languageCode = z.string().regex(/^[a-z]{2}$/, { message: 'invalid' });

/** Host names in ASCII: letters, digits and hyphens, a top-level domain of letters or an IDN's `xn--` one. */
const domainPattern = /^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * Normalises what a user types as a domain: scheme, path, port, `www.` and case do not matter, and an
 * internationalised name is kept in its ASCII (punycode) form, as browsers and DNS name it.
 * @example normalizeDomain('https://WWW.Example.com/news?x=1') // 'example.com'
 * @example normalizeDomain('пример.рф') // 'xn--e1afmkfd.xn--p1ai'
 */
export function normalizeDomain(input: string): string {
  let s = input.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  s = s.split(/[/?#]/)[0] ?? '';
  s = s.replace(/:\d+$/, '').replace(/\.$/, '');
  if (/[\u0080-\uffff]/.test(s)) {
    try {
      s = new URL(`http://${s}`).hostname;
    } catch {
      // not a host name at all: the pattern refuses it
    }
  }
  if (s.startsWith('www.')) s = s.slice(4);
  return s;
}

export const domain = z
  .string()
  .max(300)
  .transform(normalizeDomain)
  .refine((d) => domainPattern.test(d), { message: 'domain' });

const words = z.array(z.string().trim().min(1).max(100)).max(500);
const regex = z
  .string()
  .max(500)
  .refine(
    (s) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'invalid' },
  );

/** The content parser's settings (SPEC.md section 3 "Site parser"). */
export const siteParser = z.strictObject({
  rss_version: z.enum(['auto', 'rss2', 'rss1', 'atom']).default('auto'),
  rss_url: httpUrl.nullable().default(null),
  /** How dates are written when they are not RFC 822/ISO, e.g. `DD.MM.YYYY HH:mm`. */
  date_parse_string: z.string().max(100).default(''),
  encoding: z.string().max(40).default('auto'),
  /** Only materials whose category matches this regular expression are kept. */
  category_mask: regex.default(''),
  title_mask: regex.default(''),
  image_mask: regex.default(''),
  /** Put before relative image URLs, so it is an http(s) URL itself. */
  image_prefix: optionalHttpUrl.default(''),
  date_mask: regex.default(''),
  /** Without a feed: CSS selector of article links on the home page. */
  html_selector: z.string().max(500).default(''),
  /** Attribute holding the article URL on the selected elements. */
  tag_attribute: z.string().max(100).default('href'),
  default_language: languageCode.nullable().default(null),
});
export type SiteParser = z.infer<typeof siteParser>;

export const paymentMethods = ['cpc', 'cpm', 'revshare', 'fixed'] as const;

export const siteInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  domain,
  category: siteCategory,
  country: countryCode.nullable().default(null),
  language: languageCode.nullable().default(null),
  /** An IANA timezone: the site's dates written without an offset (its parser's date format) are its. */
  timezone: z.string().max(64).refine(isTimeZone, { message: 'invalid' }).default('UTC'),
  tags: words.default([]),
  blacklist_words: words.default([]),
  materials_lifetime: z.int().min(1).max(3650).default(30),
  /** Only URLs matching this regular expression are materials. */
  url_mask: regex.default(''),
  use_noindex: z.boolean().default(false),
  mark_traffic: z.boolean().default(false),
  /** Admins only: the owner also reads the click lists and what ran on the site (by creative, campaign). */
  advanced_stats: z.boolean().default(false),
  /** Admins only: off, the site's statistics are for admins alone (403 `stats_hidden` to everyone else). */
  stats_visible: z.boolean().default(true),
  stats_on_scroll: z.boolean().default(false),
  strict_items_amount: z.boolean().default(false),
  is_infinite: z.boolean().default(false),
  payment_method: z.enum(paymentMethods).default('revshare'),
  /** What a `cpm` site earns per thousand ad impressions of its widgets, in the platform currency. */
  cpm_rate: money.refine((v) => v >= 0, { message: 'positive' }).default(0),
  agency_rate: percent.default(0),
  billing_widget: id.nullable().default(null),
  affiliate_user_id: id.nullable().default(null),
  affiliate_earn_percent: percent.default(0),
  status: status.default('active'),
  default_advertorial_url: httpUrl.nullable().default(null),
  parser: siteParser.default(() => siteParser.parse({})),
  /** Admins may create a site for a user; others create their own. */
  user_id: id.optional(),
});
export type SiteInput = z.infer<typeof siteInput>;
export const siteUpdate = patchOf(siteInput.omit({ user_id: true }), { parser: patchOf(siteParser) });

export const site = siteInput.omit({ user_id: true }).extend({
  // answers carry the stored (already normalised) domain: no transform on the way out
  domain: z.string(),
  _id: id,
  user_id: id,
  moderation,
  moderation_reason: z.string().nullable(),
  materials_count: z.number().int(),
  created_at: z.string(),
});
export type Site = z.infer<typeof site>;

export const sitesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(500).default(20),
  status: status.optional(),
  moderation: moderation.optional(),
  category: siteCategory.optional(),
  /** Owner filter (SPEC: list with `account`). */
  account: id.optional(),
  search: z.string().trim().max(200).optional(),
});

export const moderationDecision = z.discriminatedUnion('decision', [
  z.strictObject({ decision: z.literal('approve') }),
  z.strictObject({ decision: z.literal('reject'), reason: z.string().trim().min(1).max(1000) }),
]);

/** A parsed article ("material") of a site. */
export const material = z.object({
  _id: id,
  site_id: id,
  url: z.string(),
  title: z.string(),
  description: z.string(),
  image: z.string(),
  category: z.string(),
  language: z.string().nullable(),
  published_at: z.string().nullable(),
  expires_at: z.string(),
});
export type Material = z.infer<typeof material>;
/** What a parser or RSS test shows: the materials that would be stored, and what was skipped and why. */
/**
 * `POST /api/parser/convert`: a date parse string as a publisher brings it from another system (PHP `date`
 * letters such as `d.m.Y H:i`, or strftime's `%d.%m.%Y %H:%M`) converted into the parser's tokens
 * (`DD.MM.YYYY HH:mm`), and, with a sample date from the feed, the date the parser reads from it.
 * @example { date_parse_string: 'd.m.Y H:i', sample: '05.11.2026 14:30' }
 *   → { date_parse_string: 'DD.MM.YYYY HH:mm', converted_from: 'php', date: '2026-11-05T14:30:00.000Z' }
 */
export const parserConvertInput = z.strictObject({
  date_parse_string: z.string().trim().min(1).max(100),
  sample: z.string().trim().max(200).default(''),
});
export type ParserConvertInput = z.infer<typeof parserConvertInput>;
export const parserConvertResult = z.object({
  date_parse_string: z.string(),
  /** The syntax the input was written in: `tokens` when it already was the parser's own. */
  converted_from: z.enum(['tokens', 'php', 'strftime']),
  /** The sample read with the converted string (ISO, UTC); null without a sample or when it does not match. */
  date: z.string().nullable(),
});
export type ParserConvertResult = z.infer<typeof parserConvertResult>;

export const parserPreview = z.object({
  source: z.enum(['rss', 'html']),
  items: z.array(material.omit({ _id: true, site_id: true, expires_at: true })),
  skipped: z.array(z.object({ url: z.string(), reason: z.string() })),
});
