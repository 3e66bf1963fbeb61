import {
  type Site,
  type SocialGroup,
  site,
  siteParser,
  socialGroup,
  type Widget,
  widget,
  widgetItem,
  widgetSettings,
} from '@adp/contract';
import { vi } from 'vitest';

/** Mocked answers of the publisher API, built through the contract schemas. */
export function siteFixture(overrides: Partial<Site> = {}): Site {
  return site.parse({
    _id: '5',
    user_id: '7',
    title: 'Daily Planet',
    domain: 'daily-planet.example',
    category: 'news',
    country: 'US',
    language: 'en',
    timezone: 'UTC',
    tags: ['city'],
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
    agency_rate: 0,
    billing_widget: null,
    affiliate_user_id: null,
    affiliate_earn_percent: 0,
    status: 'active',
    default_advertorial_url: null,
    parser: siteParser.parse({ rss_url: 'https://daily-planet.example/feed.xml' }),
    moderation: 'approved',
    moderation_reason: null,
    materials_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
}

export function widgetFixture(overrides: Partial<Widget> = {}): Widget {
  return widget.parse({
    _id: '9',
    user_id: '7',
    site_id: '5',
    title: 'Below the article',
    status: 'active',
    processor: 'default',
    settings: widgetSettings.parse({}),
    earn_processor: 'percent',
    earn_value: 50,
    criteo_type: null,
    marketplace_url: null,
    moderation: 'approved',
    moderation_reason: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
}

export function socialGroupFixture(overrides: Partial<SocialGroup> = {}): SocialGroup {
  return socialGroup.parse({
    _id: '3',
    user_id: '7',
    site_id: '5',
    title: 'Planet on Facebook',
    facebook_page_id: '1234567890',
    has_token: true,
    autopublish: false,
    valid_days: 3,
    use_description: true,
    category_blacklist: '',
    date_order: 'desc',
    rights_checked_at: null,
    posts_count: 0,
    created_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  });
}

export const previewItems = [
  widgetItem.parse({
    id: 'a1',
    title: 'First sample',
    text: 'Text',
    image: 'https://img.example/1.jpg',
    url: 'https://a.example/1',
  }),
];

export function paged<T>(items: T[]) {
  return { items, total: items.length, page: 1, limit: 20 };
}

/** Stands in for /widget.js: the preview calls window.AdpWidget.render with the form's settings. */
export function stubEmbedScript() {
  const update = vi.fn();
  const render = vi.fn(() => ({ update, destroy: vi.fn() }));
  window.AdpWidget = { version: 'test', render } as never;
  return { render, update };
}
