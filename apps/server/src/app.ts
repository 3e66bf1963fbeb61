import { fileURLToPath } from 'node:url';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { pixelRoutes } from './delivery/pixel.routes.ts';
import { serveRoutes } from './delivery/serve.routes.ts';
import { createWidgetItems } from './delivery/widget-items.ts';
import { createJobRunner } from './lib/jobs.ts';
import { createMailer } from './lib/mailer.ts';
import { memoryStore, redisStore, type SharedStore } from './lib/shared-store.ts';
import { localDiskStorage, uploadsDir } from './lib/storage.ts';
import { createAgenciesRepository } from './modules/agencies/agencies.repository.ts';
import { agenciesRoutes } from './modules/agencies/agencies.routes.ts';
import { createAgenciesService } from './modules/agencies/agencies.service.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createBannersRepository } from './modules/banners/banners.repository.ts';
import { bannersRoutes } from './modules/banners/banners.routes.ts';
import { createBannersService } from './modules/banners/banners.service.ts';
import { createCampaignsRepository } from './modules/campaigns/campaigns.repository.ts';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.ts';
import { createCampaignsService } from './modules/campaigns/campaigns.service.ts';
import { createCurrenciesRepository } from './modules/currencies/currencies.repository.ts';
import { currenciesRoutes } from './modules/currencies/currencies.routes.ts';
import { createCurrenciesService, scheduleCurrencyJobs } from './modules/currencies/currencies.service.ts';
import { ecbRateSource } from './modules/currencies/rate-sources.ts';
import { createRatesCache } from './modules/currencies/rates.ts';
import { geoRoutes } from './modules/geo/geo.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { llmGenerator, templateGenerator } from './modules/landings/landing-generator.ts';
import { landingPageRoutes } from './modules/landings/landing-page.routes.ts';
import { landingsRoutes } from './modules/landings/landings.routes.ts';
import { createLedger } from './modules/ledger/ledger.service.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { createPixelsRepository } from './modules/pixels/pixels.repository.ts';
import { pixelsRoutes } from './modules/pixels/pixels.routes.ts';
import { createPixelsService } from './modules/pixels/pixels.service.ts';
import { promotionsRoutes } from './modules/promotions/promotions.routes.ts';
import { referralsRoutes } from './modules/referrals/referrals.routes.ts';
import { createReferrals } from './modules/referrals/referrals.service.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { createSettings } from './modules/settings/settings.service.ts';
import { createSitesRepository } from './modules/sites/sites.repository.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { createSitesService } from './modules/sites/sites.service.ts';
import { facebookClient } from './modules/social/facebook.ts';
import { socialRoutes } from './modules/social/social.routes.ts';
import { createSocialPublisher } from './modules/social/social.service.ts';
import {
  createStripeClient,
  type PaymentProvider,
  sandboxProvider,
  stripeProvider,
} from './modules/topups/providers.ts';
import { sandboxPageRoutes, stripeWebhookRoutes, topupsRoutes } from './modules/topups/topups.routes.ts';
import { createTopups } from './modules/topups/topups.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { createWidgetsRepository } from './modules/widgets/widgets.repository.ts';
import { widgetsRoutes } from './modules/widgets/widgets.routes.ts';
import { withdrawalsRoutes } from './modules/withdrawals/withdrawals.routes.ts';
import { createWithdrawals } from './modules/withdrawals/withdrawals.service.ts';
import { authenticatePlugin } from './plugins/authenticate.ts';
import { dashboardPlugin } from './plugins/dashboard.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { requestLocalePlugin } from './plugins/request-locale.ts';
import { uploadsPlugin } from './plugins/uploads.ts';
import { serializerCompiler, validatorCompiler } from './plugins/zod.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  store?: SharedStore;
  logger?: boolean | object;
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The whole server, read top to bottom: shared services, then cross-cutting plugins (their order
 * matters: locale before errors so error texts are translated; auth before routes), then route trees.
 */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // keep-alive sockets must not hold a graceful shutdown open
    forceCloseConnections: 'idle',
    routerOptions: { maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();
  // the API speaks JSON and, for OAuth-style calls, forms; anything else is 415
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // 1. Shared services
  const store = opts.store ?? (config.redisUrl ? redisStore(config.redisUrl) : memoryStore());
  const authRepo = createAuthRepository(database.db);
  // display balances convert with rates kept in memory: loaded below, refreshed when they change
  const rates = createRatesCache();
  const users = createUsersRepository(database.db, config.publicUrl, rates);
  const secret = new TextEncoder().encode(
    config.jwtSecret ??
      (await authRepo.setting('jwt_secret', () => crypto.randomUUID() + crypto.randomUUID())),
  );
  const mailer = createMailer({
    db: database.db,
    log: app.log,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
  });
  const auth = createAuthService({ config, repo: authRepo, users, store, mailer, secret });
  const ledger = createLedger(database.db);
  const settings = createSettings(database.db, { minPayout: config.minPayout });
  const stripe = createStripeClient(config);
  const providers: PaymentProvider[] = [];
  if (stripe) providers.push(stripeProvider(stripe, config.publicUrl));
  if (config.paymentSandbox) providers.push(sandboxProvider(config.publicUrl));
  const topups = createTopups({
    db: database.db,
    ledger,
    providers,
    stripe,
    stripeWebhookSecret: config.stripeWebhookSecret,
  });
  const withdrawals = createWithdrawals(database.db, ledger, settings);
  const referrals = createReferrals(database.db, ledger, config.publicUrl);
  const storage = localDiskStorage(uploadsDir(config.dataDir));
  const jobs = createJobRunner(database.db, app.log);
  const currenciesRepo = createCurrenciesRepository(database.db);
  const currencies = {
    repo: currenciesRepo,
    service: createCurrenciesService({
      repo: currenciesRepo,
      rates,
      source: ecbRateSource(config.currencyRatesUrl),
    }),
  };
  const agenciesRepo = createAgenciesRepository(database.db);
  const agencies = {
    repo: agenciesRepo,
    service: createAgenciesService({ repo: agenciesRepo, users, storage }),
  };
  const sitesRepo = createSitesRepository(database.db);
  const sites = createSitesService({
    repo: sitesRepo,
    log: app.log,
    allowLoopback: config.outboundAllowLoopback,
  });
  const widgetsRepo = createWidgetsRepository(database.db);
  const widgetItems = createWidgetItems(database.db, config.publicUrl);
  const campaignsRepo = createCampaignsRepository(database.db);
  const campaigns = createCampaignsService({ db: database.db, repo: campaignsRepo, ledger });
  const pixelsRepo = createPixelsRepository(database.db, config.publicUrl);
  const pixels = { repo: pixelsRepo, service: createPixelsService(pixelsRepo) };
  const bannersRepo = createBannersRepository(database.db, config.publicUrl);
  const banners = {
    repo: bannersRepo,
    service: createBannersService({ repo: bannersRepo, pixels: pixelsRepo, storage }),
  };
  const facebook = facebookClient(config.facebookGraphUrl);
  const socialPublisher = createSocialPublisher(database.db, facebook, app.log);
  const landingGenerator =
    config.llmBaseUrl && config.llmApiKey
      ? llmGenerator({
          baseUrl: config.llmBaseUrl,
          apiKey: config.llmApiKey,
          model: config.llmModel,
          log: app.log,
        })
      : templateGenerator();
  const ctx: AppContext = {
    config,
    database,
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
    widgetItems,
    facebook,
    campaignsRepo,
    campaigns,
    pixels,
    banners,
    socialPublisher,
    landingGenerator,
    storage,
    jobs,
    rates,
    currencies,
    agencies,
  };
  // While shutting down, answers in flight close their keep-alive socket, so close() need not wait for
  // the keep-alive timeout of a client that will never send again.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  // timers stop and runs in flight finish while the database is still open
  app.addHook('preClose', () => jobs.stop());
  app.addHook('onClose', async () => {
    await store.close();
    await database.close();
  });

  // 2. Cross-cutting plugins
  await app.register(requestLocalePlugin);
  await app.register(errorsPlugin);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        // a plain-http install (a LAN address) would otherwise have every asset upgraded to https and fail
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  if (config.rateLimit > 0) {
    await app.register(rateLimit, {
      max: config.rateLimit,
      timeWindow: 60_000,
      ...(store.redis ? { redis: store.redis } : {}),
      allowList: (req) => !req.url.startsWith('/api/'),
      errorResponseBuilder: (req) => ({
        statusCode: 429,
        error: 'too_many_requests',
        message: req.t('errors:too_many_requests'),
      }),
    });
  }
  await app.register(authenticatePlugin, { ctx });
  await app.register(swagger, {
    openapi: {
      info: { title: 'AdPlatform API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // 3. Route trees: the dashboard API under /api; delivery trees (/serve, /click, /rtb) come with their issues
  await app.register(
    async (api) => {
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      await api.register(healthRoutes, { ctx });
      await api.register(authRoutes, { ctx });
      await api.register(usersRoutes, { ctx });
      await api.register(paymentsRoutes, { ctx });
      await api.register(topupsRoutes, { ctx });
      await api.register(stripeWebhookRoutes, { ctx });
      await api.register(withdrawalsRoutes, { ctx });
      await api.register(referralsRoutes, { ctx });
      await api.register(settingsRoutes, { ctx });
      await api.register(sitesRoutes, { ctx });
      await api.register(widgetsRoutes, { ctx });
      await api.register(promotionsRoutes, { ctx });
      await api.register(socialRoutes, { ctx });
      await api.register(campaignsRoutes, { ctx });
      await api.register(bannersRoutes, { ctx });
      await api.register(currenciesRoutes, { ctx });
      await api.register(agenciesRoutes, { ctx });
      await api.register(pixelsRoutes, { ctx });
      await api.register(landingsRoutes, { ctx });
      await api.register(geoRoutes, { ctx });
    },
    { prefix: '/api' },
  );
  await app.register(serveRoutes, { ctx });
  await app.register(pixelRoutes, { ctx });
  await app.register(landingPageRoutes, { ctx });
  // the page that credits without money exists only where PAYMENT_SANDBOX=on
  if (config.paymentSandbox) await app.register(sandboxPageRoutes, { ctx });
  // uploaded files (agency logos) before the dashboard, whose fallback would answer index.html
  await app.register(uploadsPlugin, { storage });
  await app.register(dashboardPlugin, { root: config.webDist ?? defaultWebDist });

  await auth.ensureAdmin(app.log);
  await currencies.service.seed();
  // jobs start with the app, not with listen: tests (JOBS=off) call the job functions themselves
  if (config.jobs) {
    scheduleCurrencyJobs(jobs, currencies.service);
    jobs.schedule('materials-refresh', 30 * 60_000, () => sites.refreshAll());
    jobs.schedule('social-autopublish', 15 * 60_000, () => socialPublisher.publishAll());
  }
  return app;
}
