import { type Site, siteInput, siteParser } from '@adp/contract';
import { z } from 'zod';

const blankToNull = (schema: z.ZodType) => z.preprocess((value) => (value === '' ? null : value), schema);

const nullable = [
  'country',
  'language',
  'billing_widget',
  'affiliate_user_id',
  'default_advertorial_url',
  'rss_url',
  'default_language',
] as const;

const base = { ...siteInput.omit({ parser: true, user_id: true }).shape, ...siteParser.shape };
const shape: Record<string, z.ZodType> = { ...base };
for (const key of nullable) shape[key] = blankToNull(base[key]);

/**
 * The site form lays every Site and parser field out flat (the parser's names do not clash with the
 * site's), validated by the contract's own rules; empty optional fields mean "not set" (null).
 */
export const siteFormSchema = z.strictObject(shape as typeof base);
export type SiteFormValues = z.input<typeof siteFormSchema>;
export type SiteFormOutput = z.output<typeof siteFormSchema>;

export const parserKeys = Object.keys(siteParser.shape) as (keyof typeof siteParser.shape)[];
export const siteFormKeys = Object.keys(base);

export function siteFormDefaults(site?: Site): SiteFormValues {
  if (site) {
    const { parser, _id, user_id, moderation, moderation_reason, materials_count, created_at, ...rest } =
      site;
    return { ...rest, ...parser };
  }
  return {
    title: '',
    domain: '',
    category: 'news',
    country: null,
    language: null,
    timezone: 'UTC',
    tags: [],
    blacklist_words: [],
    materials_lifetime: 30,
    url_mask: '',
    use_noindex: false,
    mark_traffic: false,
    advanced_stats: false,
    stats_visible: true,
    stats_on_scroll: false,
    strict_items_amount: false,
    is_infinite: false,
    payment_method: 'revshare',
    cpm_rate: 0,
    agency_rate: 0,
    billing_widget: null,
    affiliate_user_id: null,
    affiliate_earn_percent: 0,
    status: 'active',
    default_advertorial_url: null,
    ...siteParser.parse({}),
  };
}

/** Back to the API's shape: the parser settings travel as one object. */
export function toSiteInput(values: SiteFormOutput) {
  const parser: Record<string, unknown> = {};
  const site: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if ((parserKeys as string[]).includes(key)) parser[key] = value;
    else site[key] = value;
  }
  return { ...site, parser: siteParser.parse(parser) } as Omit<z.output<typeof siteInput>, 'user_id'>;
}

export function parserOf(values: SiteFormValues) {
  const parser: Record<string, unknown> = {};
  for (const key of parserKeys)
    parser[key] = values[key] === '' && key !== 'date_parse_string' ? null : values[key];
  return parser;
}
