import { z } from 'zod';
import { httpUrl, id, patchOf, status } from './common.ts';
import { money } from './money.ts';

export const widgetTypes = ['default', 'infinite', 'slide', 'position_fixed', 'builder'] as const;
export const widgetType = z.enum(widgetTypes);
export type WidgetType = z.infer<typeof widgetType>;

/** Ad selection strategies of SPEC.md section 3. */
export const processors = [
  'topctr',
  'bannerrandom',
  'exchangerandom',
  'articlerelevant',
  'articlerandom',
  'default',
  'dummy',
  'adsensebannerrandom',
  'articlelanguage',
  'articlerecommend',
  'promotionpagerandom',
  'externalapi',
  'newsrandom',
  'cpcfeedapi',
  'videobannerrandom',
  'rssrandom',
  'exchangesitesgrouprandom',
  'criteo',
  'exchangeownerrss',
] as const;
export const processor = z.enum(processors);

export const sliderDirection = z.enum(['ltr', 'rtl', 'ttb']);
export const fixedPosition = z.enum([
  'bottom-right',
  'bottom-left',
  'top-right',
  'top-left',
  'bottom',
  'top',
]);
export const earnProcessor = z.enum(['percent', 'fixed']);
export const criteoType = z.enum(['banner', 'native']);
export const builderBlockType = z.enum(['native', 'amp', 'infinity', '3_2_1']);
export const builderFormat = z.int().min(0).max(8);

/** One block of a builder widget: a block type laid out in one of the formats 0–8. */
export const builderBlock = z.strictObject({
  type: builderBlockType,
  format: builderFormat,
  /** How many items the block shows. */
  items: z.int().min(1).max(30).default(4),
});
export type BuilderBlock = z.infer<typeof builderBlock>;

const color = z.string().regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, { message: 'invalid' });

/**
 * Everything the embed script needs to render a widget. The dashboard's live preview posts exactly this
 * (unsaved) to the preview calls, and the server hands the saved copy to the script.
 */
export const widgetSettings = z.strictObject({
  type: widgetType.default('default'),
  /** CSS width: pixels, or 0 for 100% of the container. */
  width: z.int().min(0).max(4000).default(0),
  /** Number of columns in a grid. */
  columns: z.int().min(1).max(8).default(4),
  /** Minimum column width in pixels; the grid drops columns below it. */
  column_width: z.int().min(80).max(1000).default(180),
  rows: z.int().min(1).max(20).default(1),
  font: z.string().trim().max(100).default('inherit'),
  font_size: z.int().min(8).max(48).default(14),
  title_color: color.default('#222222'),
  text_color: color.default('#555555'),
  background_color: color.default('#ffffff'),
  hover_color: color.default('#1e6fd9'),
  hide_logo: z.boolean().default(false),
  /** Empty (null) turns truncation off. */
  text_max_length: z.int().min(1).max(500).nullable().default(null),
  truncation_suffix: z.string().max(10).default('…'),
  is_slider: z.boolean().default(false),
  /** Seconds between slides; 0 disables automatic sliding. */
  slider_timer: z.int().min(0).max(600).default(0),
  /** How many automatic slides before it stops; 0 = no limit. */
  slider_max_times: z.int().min(0).max(1000).default(0),
  direction: sliderDirection.default('ltr'),
  rewind: z.boolean().default(true),
  slides_per_move: z.int().min(1).max(10).default(1),
  /** Infinite widgets: how many extra loads at most; 0 = no limit. */
  load_limit: z.int().min(0).max(100).default(0),
  autosize: z.boolean().default(true),
  position: fixedPosition.default('bottom-right'),
  /** Height in pixels for fixed or sliding widgets; 0 = automatic. */
  height: z.int().min(0).max(4000).default(0),
  open_in_new_tab: z.boolean().default(true),
  /** Interstitial: shown full screen for this many ms, every `interstitial_pages` pages; 0 = off. */
  interstitial_time: z.int().min(0).max(120_000).default(0),
  interstitial_pages: z.int().min(0).max(100).default(0),
  blocks: z.array(builderBlock).max(20).default([]),
});
export type WidgetSettings = z.infer<typeof widgetSettings>;

export const widgetInput = z.strictObject({
  title: z.string().trim().min(1).max(255),
  site_id: id,
  status: status.default('active'),
  processor: processor.default('default'),
  settings: widgetSettings.default(() => widgetSettings.parse({})),
  earn_processor: earnProcessor.default('percent'),
  /** Percent of revenue (0–100) or a fixed CPC in currency units, by `earn_processor`. */
  earn_value: money.refine((v) => v >= 0, { message: 'positive' }).default(50),
  criteo_type: criteoType.nullable().default(null),
  marketplace_url: httpUrl.nullable().default(null),
});
export type WidgetInput = z.infer<typeof widgetInput>;
export const widgetUpdate = patchOf(widgetInput.omit({ site_id: true }), {
  settings: patchOf(widgetSettings),
});

export const moderation = z.enum(['pending', 'approved', 'rejected']);

export const widget = widgetInput.extend({
  _id: id,
  user_id: id,
  moderation,
  moderation_reason: z.string().nullable(),
  created_at: z.string(),
});
export type Widget = z.infer<typeof widget>;

/** An item the embed script shows: an ad or a publisher's own article. */
export const widgetItem = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  image: z.string(),
  url: z.string(),
  /** Shown as "Sponsored" / brand line under the title. */
  brand: z.string().optional(),
  sponsored: z.boolean().default(true),
  /** Advertiser markup (criteo, adsense): the embed script renders it in a sandboxed iframe. */
  html: z.string().optional(),
  /** A video creative's file: the embed script plays it in place of the image. */
  video: z.string().optional(),
  /**
   * The campaign's on_image_load: the answer's impression counts only once this item's image has loaded
   * (the embed script waits for it; an image that fails to load leaves the answer uncounted).
   */
  on_image_load: z.boolean().optional(),
  /**
   * A DSP partner's winning ad: the URLs it asked to be called when the ad is shown (its native
   * `imptrackers` and image `eventtrackers`) and when it is clicked (`link.clicktrackers`); the embed
   * script calls them with the answer's impression and on the click.
   */
  imptrackers: z.array(z.string()).optional(),
  clicktrackers: z.array(z.string()).optional(),
});
export type WidgetItem = z.infer<typeof widgetItem>;
