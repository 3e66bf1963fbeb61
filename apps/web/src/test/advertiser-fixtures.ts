import {
  type Banner,
  banner,
  type Campaign,
  campaign,
  campaignInput,
  type Landing,
  landing,
  type Pixel,
  pixel,
} from '@adp/contract';

/** Mocked answers of the advertiser API (issue 5), built through the contract schemas. */
export function campaignFixture(overrides: Partial<Campaign> = {}): Campaign {
  const input = campaignInput.parse({ title: 'Spring sale', clickprice: 0.25 });
  const { user_id: _owner, ...fields } = input;
  return campaign.parse({
    ...fields,
    _id: '5',
    user_id: '7',
    balance: 0,
    moderation: 'approved',
    moderation_reason: null,
    target_ctr_status: 'unchecked',
    target_ctr_check_date: null,
    ip_ranges: 0,
    banners_count: 0,
    created_at: '2026-01-02T10:00:00.000Z',
    ...overrides,
  });
}

export function bannerFixture(overrides: Partial<Banner> = {}): Banner {
  return banner.parse({
    _id: '11',
    user_id: '7',
    campaign_id: '5',
    title: 'Spring sale: 30% off',
    text: 'Only this week',
    url: 'https://shop.example/spring',
    status: 'active',
    moderation: 'approved',
    moderation_reason: null,
    images: null,
    video: null,
    created_at: '2026-01-02T10:00:00.000Z',
    ...overrides,
  });
}

export function pixelFixture(overrides: Partial<Pixel> = {}): Pixel {
  return pixel.parse({
    _id: '3',
    user_id: '7',
    title: 'Checkout',
    all_pages: true,
    code: '<script async src="https://adp.example/pixel.js" data-pixel="3"></script>',
    visitors: 12,
    created_at: '2026-01-02T10:00:00.000Z',
    ...overrides,
  });
}

export function landingFixture(overrides: Partial<Landing> = {}): Landing {
  return landing.parse({
    _id: '9',
    user_id: '7',
    title: 'Free trial',
    status: 'active',
    headline: 'Try it free',
    description: '',
    form: { fields: [], submit_label: '' },
    slug: 'free-trial-9',
    html: null,
    generated_at: null,
    public_url: 'https://adp.example/l/free-trial-9',
    leads: 0,
    created_at: '2026-01-02T10:00:00.000Z',
    ...overrides,
  });
}

export const pageOf = <T>(items: T[]) => ({ items, total: items.length, page: 1, limit: 20 });

/** jsdom has no FontFaceSet; Mantine's autosizing textarea listens on `document.fonts`. */
export function stubFonts(): void {
  if ('fonts' in document && document.fonts) return;
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });
}
