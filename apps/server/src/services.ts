import { fromMicros } from '@adp/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { createAdIndexHolder } from './delivery/ad-index.ts';
import { createCampaignCounters } from './delivery/counters.ts';
import { CPM_EARNINGS_JOB, creditCpmEarnings } from './delivery/cpm-earnings.ts';
import { createDeliveryRepository } from './delivery/delivery.repository.ts';
import { createDeliveryEngine } from './delivery/engine.ts';
import { pruneExchangeNotices, pruneRawEvents, RAW_EVENTS_JOB } from './delivery/events-retention.ts';
import { createDeliveryExchange } from './delivery/exchange/index.ts';
import { createTokenSigner } from './delivery/tokens.ts';
import { createTrafficRepository } from './delivery/traffic.ts';
import { createVisitorReader } from './delivery/visitor/visitor.ts';
import { createWidgetItems } from './delivery/widget-items.ts';
import { jobOutcome } from './lib/job-outcome.ts';
import { createJobRunner } from './lib/jobs.ts';
import { createLogLimiter } from './lib/log-limiter.ts';
import { createMailer } from './lib/mailer.ts';
import { createOwnerNames } from './lib/owner-names.ts';
import { memoryStore, redisStore, type SharedStore } from './lib/shared-store.ts';
import { localDiskStorage, uploadsDir } from './lib/storage.ts';
import { createAdsenseRepository } from './modules/adsense/adsense.repository.ts';
import { createAdsense } from './modules/adsense/adsense.service.ts';
import { createAgenciesRepository } from './modules/agencies/agencies.repository.ts';
import { createAgenciesService } from './modules/agencies/agencies.service.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createBannersRepository } from './modules/banners/banners.repository.ts';
import { createBannersService } from './modules/banners/banners.service.ts';
import { createCampaignsRepository } from './modules/campaigns/campaigns.repository.ts';
import { createCampaignsService, TARGET_CTR_JOB } from './modules/campaigns/campaigns.service.ts';
import { createClicksRepository } from './modules/clicks/clicks.repository.ts';
import { createClicksService } from './modules/clicks/clicks.service.ts';
import { createContentPagesRepository } from './modules/content-pages/content-pages.repository.ts';
import { createContentPagesService } from './modules/content-pages/content-pages.service.ts';
import { createCurrenciesRepository } from './modules/currencies/currencies.repository.ts';
import { createCurrenciesService, scheduleCurrencyJobs } from './modules/currencies/currencies.service.ts';
import { ecbRateSource } from './modules/currencies/rate-sources.ts';
import { createRatesCache } from './modules/currencies/rates.ts';
import { createDecodeUrlRepository } from './modules/decode-url/decode-url.repository.ts';
import { createDecodeUrlService } from './modules/decode-url/decode-url.service.ts';
import { createDspPartnersRepository } from './modules/dsp-partners/dsp-partners.repository.ts';
import { createDspPartnersService } from './modules/dsp-partners/dsp-partners.service.ts';
import { createDspStatsRepository } from './modules/dsp-partners/dsp-stats.repository.ts';
import { createDspTrees } from './modules/dsp-partners/dsp-trees.ts';
import { createHealthRepository } from './modules/health/health.repository.ts';
import { llmGenerator, templateGenerator } from './modules/landings/landing-generator.ts';
import { createLandingsRepository } from './modules/landings/landings.repository.ts';
import { createLandingsService } from './modules/landings/landings.service.ts';
import { createLedger } from './modules/ledger/ledger.service.ts';
import { createNamesRepository } from './modules/names/names.repository.ts';
import { LOW_BALANCE_JOB, lowBalanceResult } from './modules/notifications/notices.ts';
import { createNotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { createPartnersRepository } from './modules/partners/partners.repository.ts';
import { createPartnersService } from './modules/partners/partners.service.ts';
import { createPixelsRepository } from './modules/pixels/pixels.repository.ts';
import { createPixelsService } from './modules/pixels/pixels.service.ts';
import { createPrebidPartnersRepository } from './modules/prebid-partners/prebid-partners.repository.ts';
import { createPrebidPartnersService } from './modules/prebid-partners/prebid-partners.service.ts';
import { createPromotionsRepository } from './modules/promotions/promotions.repository.ts';
import { createPromotionsService } from './modules/promotions/promotions.service.ts';
import { createReferrals } from './modules/referrals/referrals.service.ts';
import { createReportsRepository } from './modules/reports/reports.repository.ts';
import { createReportsService } from './modules/reports/reports.service.ts';
import { createRevenueTermsRepository } from './modules/revenue-terms/revenue-terms.repository.ts';
import { createRevenueTerms } from './modules/revenue-terms/revenue-terms.service.ts';
import { createRtbRepository } from './modules/rtb/rtb.repository.ts';
import { createRtbService } from './modules/rtb/rtb.service.ts';
import { createRtbPartnersRepository } from './modules/rtb/rtb-partners.repository.ts';
import { createRtbPartnersService } from './modules/rtb/rtb-partners.service.ts';
import { createRtbStats } from './modules/rtb/rtb-stats.service.ts';
import { createBidSigner } from './modules/rtb/rtb-tokens.ts';
import { createSellersRepository } from './modules/sellers/sellers.repository.ts';
import { createSellers } from './modules/sellers/sellers.service.ts';
import { createSettingsRepository } from './modules/settings/settings.repository.ts';
import { createSettings } from './modules/settings/settings.service.ts';
import { createSitesRepository } from './modules/sites/sites.repository.ts';
import { createSitesService } from './modules/sites/sites.service.ts';
import { facebookClient } from './modules/social/facebook.ts';
import { createSocialRepository } from './modules/social/social.repository.ts';
import { createSocialGroups, createSocialPublisher } from './modules/social/social.service.ts';
import { createSourcesRepository } from './modules/sources/sources.repository.ts';
import { createSourcesService } from './modules/sources/sources.service.ts';
import { createStatsOwnersRepository, createStatsRepository } from './modules/stats/stats.repository.ts';
import { createStatsService } from './modules/stats/stats.service.ts';
import { createStatsTreesRepository } from './modules/stats/stats-trees.repository.ts';
import { createStatsTreesService } from './modules/stats/stats-trees.service.ts';
import { createSystemRepository } from './modules/system/system.repository.ts';
import { createSystemService } from './modules/system/system.service.ts';
import {
  createStripeClient,
  type PaymentProvider,
  sandboxProvider,
  stripeProvider,
} from './modules/topups/providers.ts';
import { createTopupsRepository } from './modules/topups/topups.repository.ts';
import { createTopups } from './modules/topups/topups.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createWidgetsRepository } from './modules/widgets/widgets.repository.ts';
import { createWidgetsService } from './modules/widgets/widgets.service.ts';
import { createWithdrawalsRepository } from './modules/withdrawals/withdrawals.repository.ts';
import { createWithdrawals } from './modules/withdrawals/withdrawals.service.ts';

/**
 * Every service of the server, built once in dependency order: what the route trees receive as `ctx`.
 * Nothing here listens or schedules; `startServices` does the start-up work once the routes exist.
 */
export async function createServices(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
  sharedStore?: SharedStore,
): Promise<AppContext> {
  const { db } = database;
  const health = createHealthRepository(database);
  const ownerNames = createOwnerNames(db);
  const names = createNamesRepository(db);
  const revenueTerms = createRevenueTerms(createRevenueTermsRepository(db));
  const store =
    sharedStore ??
    (config.redisUrl ? await openRedisStore(config.redisUrl, log) : memoryStore({ file: config.storeFile }));
  const authRepo = createAuthRepository(db);
  // display balances convert with rates kept in memory: loaded at start, refreshed when they change
  const rates = createRatesCache();
  const users = createUsersRepository(db, config.publicUrl, rates);
  const secret = new TextEncoder().encode(
    config.jwtSecret ??
      (await authRepo.setting('jwt_secret', () => crypto.randomUUID() + crypto.randomUUID())),
  );
  const mailer = createMailer({ db, log, smtpUrl: config.smtpUrl, from: config.mailFrom });
  const auth = createAuthService({ config, repo: authRepo, users, store, mailer, secret });
  const ledger = createLedger(db);
  const settings = createSettings(createSettingsRepository(db), {
    minPayout: config.minPayout,
    lowCampaignBalance: config.lowCampaignBalance,
    lowAccountBalance: config.lowAccountBalance,
  });
  const stripe = createStripeClient(config);
  const providers: PaymentProvider[] = [];
  if (stripe) providers.push(stripeProvider(stripe, config.publicUrl));
  if (config.paymentSandbox) providers.push(sandboxProvider(config.publicUrl));
  const topups = createTopups({
    repo: createTopupsRepository(db),
    ledger,
    providers,
    stripe,
    stripeWebhookSecret: config.stripeWebhookSecret,
    log,
  });
  const withdrawals = createWithdrawals(createWithdrawalsRepository(db), ledger, settings);
  const referrals = createReferrals(db, ledger, config.publicUrl);
  const storage = localDiskStorage(uploadsDir(config.dataDir));
  const jobs = createJobRunner(db, log);
  const currenciesRepo = createCurrenciesRepository(db);
  const currencies = {
    repo: currenciesRepo,
    service: createCurrenciesService({
      repo: currenciesRepo,
      rates,
      source: ecbRateSource(config.currencyRatesUrl),
    }),
  };
  const agenciesRepo = createAgenciesRepository(db);
  const agencies = {
    repo: agenciesRepo,
    service: createAgenciesService({ repo: agenciesRepo, users, storage }),
  };
  const sitesRepo = createSitesRepository(db);
  const rtbPartnersRepo = createRtbPartnersRepository(db);
  const prebidPartnersRepo = createPrebidPartnersRepository(db, config.publicUrl);
  const widgetsRepo = createWidgetsRepository(db);
  const sites = createSitesService({
    repo: sitesRepo,
    widgets: widgetsRepo,
    users,
    log,
    allowLoopback: config.outboundAllowLoopback,
  });
  const widgetItems = createWidgetItems(db, config.publicUrl);
  const widgets = createWidgetsService({ repo: widgetsRepo, revenueTerms });
  const stats = createStatsService(createStatsRepository(db), createStatsOwnersRepository(db));
  const statsTreesRepo = createStatsTreesRepository(db);
  const statsTrees = {
    repo: statsTreesRepo,
    service: createStatsTreesService({ stats, store: createStatsRepository(db), repo: statsTreesRepo }),
  };
  const reports = createReportsService({
    repo: createReportsRepository(db),
    store: createStatsRepository(db),
  });
  const clicks = createClicksService(createClicksRepository(db), stats);
  const campaignsRepo = createCampaignsRepository(db);
  const campaigns = createCampaignsService({
    repo: campaignsRepo,
    ledger,
    sites: sitesRepo,
    widgets: widgetsRepo,
    rtbPartners: rtbPartnersRepo,
    stats,
  });
  const pixelsRepo = createPixelsRepository(db, config.publicUrl);
  const pixels = { repo: pixelsRepo, service: createPixelsService(pixelsRepo) };
  const bannersRepo = createBannersRepository(db, config.publicUrl);
  const banners = {
    repo: bannersRepo,
    service: createBannersService({
      repo: bannersRepo,
      pixels: pixelsRepo,
      sites: sitesRepo,
      rtbPartners: rtbPartnersRepo,
      prebidPartners: prebidPartnersRepo,
      storage,
    }),
  };
  const facebook = facebookClient(config.facebookGraphUrl);
  const socialRepo = createSocialRepository(db);
  const socialPublisher = createSocialPublisher(socialRepo, facebook, log);
  const social = {
    repo: socialRepo,
    service: createSocialGroups({ repo: socialRepo, facebook, publisher: socialPublisher }),
  };
  const promotionsRepo = createPromotionsRepository(db, config.publicUrl);
  const promotions = {
    repo: promotionsRepo,
    service: createPromotionsService({ repo: promotionsRepo, storage }),
  };
  const landingGenerator =
    config.llmBaseUrl && config.llmApiKey
      ? llmGenerator({ baseUrl: config.llmBaseUrl, apiKey: config.llmApiKey, model: config.llmModel, log })
      : templateGenerator();
  const landingsRepo = createLandingsRepository(db);
  const landings = {
    repo: landingsRepo,
    service: createLandingsService({
      repo: landingsRepo,
      generator: landingGenerator,
      publicUrl: config.publicUrl,
      storage,
      log,
    }),
  };
  const deliveryRepo = createDeliveryRepository(db);
  const adIndex = createAdIndexHolder(deliveryRepo, (key) => `${config.publicUrl}/uploads/${key}`, log);
  const counters = createCampaignCounters(store);
  const deliverySecret =
    config.deliverySecret ??
    (await authRepo.setting('delivery_secret', () => crypto.randomUUID() + crypto.randomUUID()));
  const visitors = await createVisitorReader({ geoipDb: config.geoipDb });
  const signer = createTokenSigner(deliverySecret, config.clickTtl);
  const dspRepo = createDspPartnersRepository(db);
  const dspStats = createDspStatsRepository(db);
  const dspPartners = {
    db,
    repo: dspRepo,
    stats: dspStats,
    service: createDspPartnersService({
      db,
      repo: dspRepo,
      sites: sitesRepo,
      allowLoopback: config.outboundAllowLoopback,
    }),
  };
  const exchange = createDeliveryExchange({
    repo: dspRepo,
    stats: dspStats,
    store,
    publicUrl: config.publicUrl,
    allowLoopback: config.outboundAllowLoopback,
    flushMs: config.deliveryFlushMs,
    log,
  });
  const delivery = {
    repo: deliveryRepo,
    index: adIndex,
    counters,
    visitors,
    engine: createDeliveryEngine({
      repo: deliveryRepo,
      index: adIndex,
      counters,
      store,
      signer,
      visitors,
      widgetItems,
      publicUrl: config.publicUrl,
      clickTtl: config.clickTtl,
      flushMs: config.deliveryFlushMs,
      traffic: createTrafficRepository(db),
      allowLoopback: config.outboundAllowLoopback,
      exchange,
      log,
    }),
    exchange,
    stopListening: async () => {},
  };
  // win and billing notices may come a day after the auction
  const bidTtl = Math.max(config.clickTtl, 86_400);
  const bidSigner = createBidSigner(deliverySecret, bidTtl);
  const decodeUrl = createDecodeUrlService({
    repo: createDecodeUrlRepository(db),
    signer,
    store,
    clickTtl: config.clickTtl,
    bids: bidSigner,
    bidTtl,
    publicUrl: config.publicUrl,
  });
  const sourcesRepo = createSourcesRepository(db);
  const sources = { repo: sourcesRepo, service: createSourcesService(sourcesRepo) };
  const rtbPartners = {
    repo: rtbPartnersRepo,
    service: createRtbPartnersService({
      repo: rtbPartnersRepo,
      currencyExists: (code) => users.currencyExists(code),
    }),
  };
  const rtbRepo = createRtbRepository(db);
  const rtb = createRtbService({
    repo: rtbRepo,
    partners: rtbPartners.service,
    index: adIndex,
    counters,
    visitors,
    rates,
    store,
    signer: bidSigner,
    publicUrl: config.publicUrl,
  });
  const partners = createPartnersService({
    repo: createPartnersRepository(db),
    agencies,
    users,
    storage,
    dspTrees: createDspTrees(db),
  });
  const prebidPartners = createPrebidPartnersService({
    repo: prebidPartnersRepo,
    publicUrl: config.publicUrl,
    changed: () => rtb.reloadPrebid(),
  });
  const notifications = createNotificationsRepository(db);
  const system = createSystemService({
    repo: createSystemRepository(database),
    store,
    jobs,
    index: adIndex,
    engine: delivery.engine,
    exchange,
    settings,
  });
  return {
    system,
    decodeUrl,
    contentPages: createContentPagesService({ repo: createContentPagesRepository(db) }),
    sellers: createSellers(createSellersRepository(db), config),
    adsense: createAdsense(createAdsenseRepository(db), ledger),
    partners,
    prebidPartners,
    rtbPartners,
    rtb,
    rtbRepo,
    rtbStats: createRtbStats(rtbRepo),
    notifications,
    delivery,
    dspPartners,
    sources,
    config,
    database,
    health,
    ownerNames,
    names,
    revenueTerms,
    store,
    mailer,
    users,
    auth,
    ledger,
    settings,
    topups,
    withdrawals,
    referrals,
    sitesRepo,
    sites,
    widgetsRepo,
    widgets,
    widgetItems,
    facebook,
    campaignsRepo,
    campaigns,
    pixels,
    banners,
    socialPublisher,
    social,
    promotions,
    landingGenerator,
    landings,
    storage,
    jobs,
    rates,
    currencies,
    agencies,
    stats,
    statsTrees,
    clicks,
    reports,
  };
}

/**
 * Start-up work once the routes exist: the configured admin, the currency list (and the rates cache),
 * and, unless JOBS=off (tests call the job functions themselves), the scheduled jobs.
 */
export async function startServices(ctx: AppContext, log: FastifyBaseLogger): Promise<void> {
  await ctx.auth.ensureAdmin(log);
  await startDelivery(ctx);
  await ctx.currencies.service.seed();
  await startRtb(ctx);
  if (ctx.config.jobs) {
    scheduleCurrencyJobs(ctx.jobs, ctx.currencies.service);
    ctx.jobs.schedule('materials-refresh', 30 * 60_000, () => ctx.sites.refreshAll());
    ctx.jobs.schedule('social-autopublish', 15 * 60_000, () => ctx.socialPublisher.publishAll());
    ctx.jobs.schedule(RAW_EVENTS_JOB, 60 * 60_000, async () => {
      const days = ctx.config.rawEventsDays;
      const events = await pruneRawEvents(ctx.delivery.repo, days);
      const notices = await pruneExchangeNotices(ctx.notifications, days);
      const text = `${events.text}; ${notices.text}`;
      return events.code === 'retention_kept'
        ? jobOutcome('retention_kept', text)
        : jobOutcome('retention', text, {
            events: events.values.deleted ?? 0,
            notices: notices.values.deleted ?? 0,
            before: events.values.before ?? '',
          });
    });
    // SPEC.md section 9: click sources data refreshed every 20 minutes
    ctx.jobs.schedule('click-sources', 20 * 60_000, async () => {
      const count = await ctx.clicks.refreshSources();
      return jobOutcome('click_sources', String(count), { count });
    });
    ctx.jobs.schedule(TARGET_CTR_JOB, 60 * 60_000, async () => {
      const n = await ctx.campaigns.checkAutoTargetCtrs();
      return jobOutcome(
        'target_ctr',
        `passed ${n.checked}, not passed ${n.not_passed}, too few impressions ${n.unchecked}`,
        { passed: n.checked, not_passed: n.not_passed, unchecked: n.unchecked },
      );
    });
    // CPM sites' publishers are paid per thousand impressions, hour by hour (delivery/cpm-earnings.ts)
    ctx.jobs.schedule(CPM_EARNINGS_JOB, 20 * 60_000, async () => {
      const r = await creditCpmEarnings(ctx.database.db);
      const earned = fromMicros(r.earned);
      return jobOutcome('cpm_earnings', `${r.hours} widget hours, earned ${earned}`, {
        hours: r.hours,
        earned,
      });
    });
    ctx.jobs.schedule(LOW_BALANCE_JOB, 60_000, async () => {
      // the admin's thresholds (System page), read at each run: a change holds from the next minute
      const told = await ctx.notifications.checkAllLowBalances(await ctx.settings.lowBalanceThresholds());
      return lowBalanceResult(told);
    });
  }
}

/**
 * Delivery's start: today's counters from the database (an in-process store starts empty), the ad
 * index, and its rebuilds: on every change notice from any instance, and every minute anyway.
 */
async function startDelivery(ctx: AppContext) {
  const { delivery } = ctx;
  await delivery.counters.seed(delivery.repo);
  await delivery.index.rebuild();
  await delivery.counters.watch(delivery.index.get().campaigns.values());
  delivery.index.onRebuilt(() => delivery.counters.watch(delivery.index.get().campaigns.values()));
  // the DSP partners of the outbound auction follow the same change notices (their tables' triggers)
  await delivery.exchange.seed();
  await delivery.exchange.reload();
  delivery.index.onRebuilt(() => delivery.exchange.reload());
  delivery.stopListening = await ctx.database.listen('adp_delivery', () => delivery.index.changed());
  const minute = setInterval(() => void delivery.index.rebuild(), 60_000);
  minute.unref();
  const stop = delivery.stopListening;
  delivery.stopListening = async () => {
    clearInterval(minute);
    await stop();
  };
}

/** The exchange's start: partners in memory, today's spend; both follow the ad index's rebuilds. */
async function startRtb(ctx: AppContext) {
  await ctx.rtbPartners.service.reload();
  await ctx.rtb.reloadPrebid();
  await ctx.rtb.seed();
  ctx.delivery.index.onRebuilt(async () => {
    await ctx.rtbPartners.service.reload();
    await ctx.rtb.reloadPrebid();
    await ctx.rtb.refresh();
  });
  // the Prebid endpoint's buffered counts are written before the database closes
  const stop = ctx.delivery.stopListening;
  ctx.delivery.stopListening = async () => {
    ctx.rtb.stop();
    await ctx.rtb.flushPrebid().catch(() => {});
    await stop();
  };
}

/**
 * The shared store on REDIS_URL, once it answers: a Redis that does not answer at the start stops it with
 * the reason (as an unreachable DATABASE_URL does). Later outages answer 503 (storeUnavailable) and are
 * logged here at most once a minute, with how many errors were held back.
 */
async function openRedisStore(url: string, log: FastifyBaseLogger): Promise<SharedStore> {
  const limiter = createLogLimiter();
  const store = redisStore(url, 'adp:', (err) => {
    const hit = limiter.hit('redis');
    if (hit.log)
      log.warn(
        { err: err.message, suppressed: hit.suppressed },
        'Redis (REDIS_URL) does not answer: requests that need it answer 503',
      );
  });
  try {
    await store.redis?.ping();
  } catch (err) {
    await store.close().catch(() => {});
    const where = new URL(url);
    throw new Error(`REDIS_URL: Redis at ${where.host} does not answer (${(err as Error).message})`);
  }
  return store;
}
