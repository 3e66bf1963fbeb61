import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { AdIndexHolder } from './delivery/ad-index.ts';
import type { CampaignCounters } from './delivery/counters.ts';
import type { DeliveryRepository } from './delivery/delivery.repository.ts';
import type { DeliveryEngine } from './delivery/engine.ts';
import type { Exchange } from './delivery/exchange/index.ts';
import type { VisitorReader } from './delivery/visitor/visitor.ts';
import type { WidgetItems } from './delivery/widget-items.ts';
import type { JobRunner } from './lib/jobs.ts';
import type { Mailer } from './lib/mailer.ts';
import type { OwnerNames } from './lib/owner-names.ts';
import type { SharedStore } from './lib/shared-store.ts';
import type { Storage } from './lib/storage.ts';
import type { Adsense } from './modules/adsense/adsense.service.ts';
import type { AgenciesRepository } from './modules/agencies/agencies.repository.ts';
import type { AgenciesService } from './modules/agencies/agencies.service.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import type { BannersRepository } from './modules/banners/banners.repository.ts';
import type { BannersService } from './modules/banners/banners.service.ts';
import type { CampaignsRepository } from './modules/campaigns/campaigns.repository.ts';
import type { CampaignsService } from './modules/campaigns/campaigns.service.ts';
import type { ClicksService } from './modules/clicks/clicks.service.ts';
import type { ContentPagesService } from './modules/content-pages/content-pages.service.ts';
import type { CurrenciesRepository } from './modules/currencies/currencies.repository.ts';
import type { CurrenciesService } from './modules/currencies/currencies.service.ts';
import type { RatesCache } from './modules/currencies/rates.ts';
import type { DecodeUrlService } from './modules/decode-url/decode-url.service.ts';
import type { DspPartnersRepository } from './modules/dsp-partners/dsp-partners.repository.ts';
import type { DspPartnersService } from './modules/dsp-partners/dsp-partners.service.ts';
import type { DspStatsRepository } from './modules/dsp-partners/dsp-stats.repository.ts';
import type { HealthRepository } from './modules/health/health.repository.ts';
import type { LandingGenerator } from './modules/landings/landing-generator.ts';
import type { LandingsRepository } from './modules/landings/landings.repository.ts';
import type { LandingsService } from './modules/landings/landings.service.ts';
import type { Ledger } from './modules/ledger/ledger.service.ts';
import type { NamesRepository } from './modules/names/names.repository.ts';
import type { NotificationsRepository } from './modules/notifications/notifications.repository.ts';
import type { PartnersService } from './modules/partners/partners.service.ts';
import type { PixelsRepository } from './modules/pixels/pixels.repository.ts';
import type { PixelsService } from './modules/pixels/pixels.service.ts';
import type { PrebidPartnersService } from './modules/prebid-partners/prebid-partners.service.ts';
import type { PromotionsRepository } from './modules/promotions/promotions.repository.ts';
import type { PromotionsService } from './modules/promotions/promotions.service.ts';
import type { Referrals } from './modules/referrals/referrals.service.ts';
import type { ReportsService } from './modules/reports/reports.service.ts';
import type { RevenueTerms } from './modules/revenue-terms/revenue-terms.service.ts';
import type { RtbRepository } from './modules/rtb/rtb.repository.ts';
import type { RtbService } from './modules/rtb/rtb.service.ts';
import type { RtbPartnersRepository } from './modules/rtb/rtb-partners.repository.ts';
import type { RtbPartnersService } from './modules/rtb/rtb-partners.service.ts';
import type { RtbStats } from './modules/rtb/rtb-stats.service.ts';
import type { Sellers } from './modules/sellers/sellers.service.ts';
import type { SettingsService } from './modules/settings/settings.service.ts';
import type { SitesRepository } from './modules/sites/sites.repository.ts';
import type { SitesService } from './modules/sites/sites.service.ts';
import type { FacebookClient } from './modules/social/facebook.ts';
import type { SocialRepository } from './modules/social/social.repository.ts';
import type { SocialGroups, SocialPublisher } from './modules/social/social.service.ts';
import type { SourcesRepository } from './modules/sources/sources.repository.ts';
import type { SourcesService } from './modules/sources/sources.service.ts';
import type { StatsService } from './modules/stats/stats.service.ts';
import type { StatsTreesRepository } from './modules/stats/stats-trees.repository.ts';
import type { StatsTreesService } from './modules/stats/stats-trees.service.ts';
import type { SystemService } from './modules/system/system.service.ts';
import type { Topups } from './modules/topups/topups.service.ts';
import type { UsersRepository } from './modules/users/users.repository.ts';
import type { WidgetsRepository } from './modules/widgets/widgets.repository.ts';
import type { WidgetsService } from './modules/widgets/widgets.service.ts';
import type { Withdrawals } from './modules/withdrawals/withdrawals.service.ts';

/** What every module gets: built once in app.ts, in dependency order. */
export interface AppContext {
  config: Config;
  /** The hot path's parts: ad index, counters, visitor reader and the engine that serves and charges. */
  delivery: {
    repo: DeliveryRepository;
    index: AdIndexHolder;
    counters: CampaignCounters;
    visitors: VisitorReader;
    engine: DeliveryEngine;
    /** The outbound auction: DSP partners bid for widget slots (delivery/exchange). */
    exchange: Exchange;
    stopListening: () => Promise<void>;
  };
  database: Database;
  /** Decode-URL (admins): what any URL, and our delivery URLs' tokens, say. */
  decodeUrl: DecodeUrlService;
  /** AdSense incomes (admins): report uploads, site mapping, approval credits through the ledger. */
  adsense: Adsense;
  /** FAQ and contacts: the pages every signed-in user reads and admins edit. */
  contentPages: ContentPagesService;
  /** sellers.json (cached) and each site's ads.txt line and its check. */
  sellers: Sellers;
  health: HealthRepository;
  /** The admin's system page: health of the parts, jobs, buffers, versions, the maintenance switch. */
  system: SystemService;
  /** Owners' names for list answers and the owner filter. */
  ownerNames: OwnerNames;
  names: NamesRepository;
  revenueTerms: RevenueTerms;
  store: SharedStore;
  mailer: Mailer;
  users: UsersRepository;
  auth: AuthService;
  storage: Storage;
  jobs: JobRunner;
  rates: RatesCache;
  currencies: { repo: CurrenciesRepository; service: CurrenciesService };
  agencies: { repo: AgenciesRepository; service: AgenciesService };
  ledger: Ledger;
  settings: SettingsService;
  topups: Topups;
  withdrawals: Withdrawals;
  referrals: Referrals;
  sitesRepo: SitesRepository;
  /** Traffic sources blocked for a campaign or for every campaign. */
  sources: { repo: SourcesRepository; service: SourcesService };
  /** DSP partners, their blacklist items and statistics (the change log reads `db`). */
  dspPartners: {
    db: Db;
    repo: DspPartnersRepository;
    stats: DspStatsRepository;
    service: DspPartnersService;
  };
  sites: SitesService;
  widgetsRepo: WidgetsRepository;
  widgets: WidgetsService;
  widgetItems: WidgetItems;
  facebook: FacebookClient;
  campaignsRepo: CampaignsRepository;
  campaigns: CampaignsService;
  pixels: { repo: PixelsRepository; service: PixelsService };
  banners: { repo: BannersRepository; service: BannersService };
  socialPublisher: SocialPublisher;
  social: { repo: SocialRepository; service: SocialGroups };
  promotions: { repo: PromotionsRepository; service: PromotionsService };
  landingGenerator: LandingGenerator;
  landings: { repo: LandingsRepository; service: LandingsService };
  /** Statistics, read from the rollups through the statistics store. */
  stats: StatsService;
  /** The second stats tree, dbd, criteo, eCPM and platform revenue, rtb-stats (stats-trees.routes.ts). */
  statsTrees: { repo: StatsTreesRepository; service: StatsTreesService };
  /** The admin reports (rows and streamed exports). */
  reports: ReportsService;
  /** Click-level lists, click sources and the aggregates of the click screens. */
  clicks: ClicksService;
  /** Agency groups (/partners): their rates, logo, preview and statistics. */
  partners: PartnersService;
  /** Prebid partners (admins' CRUD and stats; the Prebid bidder endpoint finds them by key). */
  prebidPartners: PrebidPartnersService;
  /** RTB partners (admins' CRUD; the bidder finds them by key in memory). */
  rtbPartners: { repo: RtbPartnersRepository; service: RtbPartnersService };
  /** The inbound bidder and its win / billing notices (POST /rtb/openrtb2/:key). */
  rtb: RtbService;
  rtbRepo: RtbRepository;
  /** The rtb-stats answers of campaigns and creatives (what the exchange billed). */
  rtbStats: RtbStats;
  notifications: NotificationsRepository;
}
