import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { AppError } from './lib/errors.ts';
import { documentedSchema, withCommonAnswers } from './lib/openapi.ts';
import { adsenseRoutes } from './modules/adsense/adsense.routes.ts';
import { agenciesRoutes } from './modules/agencies/agencies.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { bannersRoutes } from './modules/banners/banners.routes.ts';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.ts';
import { clicksRoutes } from './modules/clicks/clicks.routes.ts';
import { contentPagesRoutes } from './modules/content-pages/content-pages.routes.ts';
import { currenciesRoutes } from './modules/currencies/currencies.routes.ts';
import { decodeUrlRoutes } from './modules/decode-url/decode-url.routes.ts';
import { dspPartnersRoutes } from './modules/dsp-partners/dsp-partners.routes.ts';
import { entitiesRoutes } from './modules/entities/entities.routes.ts';
import { geoRoutes } from './modules/geo/geo.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { landingsRoutes } from './modules/landings/landings.routes.ts';
import { namesRoutes } from './modules/names/names.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { partnersRoutes } from './modules/partners/partners.routes.ts';
import { paymentsRoutes } from './modules/payments/payments.routes.ts';
import { pixelsRoutes } from './modules/pixels/pixels.routes.ts';
import { prebidPartnersRoutes } from './modules/prebid-partners/prebid-partners.routes.ts';
import { promotionsRoutes } from './modules/promotions/promotions.routes.ts';
import { referralsRoutes } from './modules/referrals/referrals.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { revenueTermsRoutes } from './modules/revenue-terms/revenue-terms.routes.ts';
import { rtbPartnersRoutes } from './modules/rtb/rtb-partners.routes.ts';
import { adsTxtRoutes, sellersJsonRoutes } from './modules/sellers/sellers.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { sitesRoutes } from './modules/sites/sites.routes.ts';
import { socialRoutes } from './modules/social/social.routes.ts';
import { sourcesRoutes } from './modules/sources/sources.routes.ts';
import { statsRoutes } from './modules/stats/stats.routes.ts';
import { statsTreesRoutes } from './modules/stats/stats-trees.routes.ts';
import { systemRoutes } from './modules/system/system.routes.ts';
import { stripeWebhookRoutes, topupsRoutes } from './modules/topups/topups.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { widgetsRoutes } from './modules/widgets/widgets.routes.ts';
import { withdrawalsRoutes } from './modules/withdrawals/withdrawals.routes.ts';
import { authenticatePlugin } from './plugins/authenticate.ts';
import { dashboardPlugin } from './plugins/dashboard.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { requestLocalePlugin } from './plugins/request-locale.ts';
import { uploadsPlugin } from './plugins/uploads.ts';

/** A body of nothing but JSON's own whitespace (RFC 8259: space, tab, line feed, carriage return). */
const jsonWhitespace = /^[ \t\n\r]*$/;

/**
 * The dashboard API under /api and the dashboard itself, as one encapsulated tree: everything a person
 * behind the dashboard needs (their language, translated errors, security headers, request limits, the
 * login, the OpenAPI document) and nothing the delivery tree pays for. Order matters, top to bottom:
 */
export async function apiTree(app: FastifyInstance, { ctx, webDist }: { ctx: AppContext; webDist: string }) {
  const { config, store } = ctx;
  // the caller's language first: every later answer and error speaks it
  await app.register(requestLocalePlugin);
  // one error handler turns every failure into the promised 422/403/404/429, translated
  await app.register(errorsPlugin);
  // security headers for the dashboard's pages and the API's answers
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // and the ad server's own address over plain http (PUBLIC_URL: the widget preview's sample pictures
        // and served creatives), when the dashboard was opened at another host name (127.0.0.1, a LAN name)
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', new URL(config.publicUrl).origin],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        // a plain-http install (a LAN address) would otherwise have every asset upgraded to https and fail
        upgradeInsecureRequests: null,
      },
    },
  });
  // OAuth-style calls (/api/auth/token, /revoke) are form-encoded; every other call takes JSON (or
  // multipart where it uploads): a form body elsewhere is a 415, not a 422 naming the whole body as a field.
  // A body in another charset than UTF-8 would be read as UTF-8, so it is refused too.
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  app.addHook('onRequest', async (req) => {
    const type = req.headers['content-type'];
    if (!type) return;
    const form = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(type);
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
    if ((form && !req.routeOptions.config.oauth) || (charset && charset !== 'utf-8' && charset !== 'utf8'))
      throw new AppError(415, 'unsupported_media_type');
  });
  // RATE_LIMIT requests a minute per client on /api (0 = off), shared through Redis when there is one
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
  // reads the bearer token for the route trees that ask for a logged-in caller
  await app.register(authenticatePlugin, { ctx });
  // before the routes, so it sees each of them: /api/openapi.json and the docs page /api/docs
  await app.register(swagger, {
    openapi: {
      info: { title: 'AdPlatform API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: documentedSchema,
    transformObject: withCommonAnswers,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  // the resources, one module each
  await app.register(
    async (api) => {
      // an empty body labelled JSON (clients that send the header with every call, a DELETE among them)
      // is no body, so the call is judged on what it asks (its ids, its rights) rather than refused unread;
      // the OAuth routes keep their invalid_request for it
      const json = api.getDefaultJsonParser('error', 'error');
      api.removeContentTypeParser('application/json');
      api.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
        if (jsonWhitespace.test(body as string) && !req.routeOptions.config.oauth)
          return done(null, undefined);
        json(req, body as string, done);
      });
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
      await api.register(dspPartnersRoutes, { ctx });
      await api.register(decodeUrlRoutes, { ctx });
      await api.register(adsenseRoutes, { ctx });
      await api.register(agenciesRoutes, { ctx });
      await api.register(partnersRoutes, { ctx });
      await api.register(prebidPartnersRoutes, { ctx });
      await api.register(adsTxtRoutes, { ctx });
      await api.register(revenueTermsRoutes, { ctx });
      await api.register(pixelsRoutes, { ctx });
      await api.register(landingsRoutes, { ctx });
      await api.register(geoRoutes, { ctx });
      await api.register(namesRoutes, { ctx });
      await api.register(statsRoutes, { ctx });
      await api.register(statsTreesRoutes, { ctx });
      await api.register(sourcesRoutes, { ctx });
      await api.register(reportsRoutes, { ctx });
      await api.register(clicksRoutes, { ctx });
      await api.register(rtbPartnersRoutes, { ctx });
      await api.register(notificationsRoutes, { ctx });
      await api.register(entitiesRoutes, { ctx });
      await api.register(contentPagesRoutes, { ctx });
      await api.register(systemRoutes, { ctx });
    },
    { prefix: '/api' },
  );

  // IAB sellers.json at the root (public, cached)
  await app.register(sellersJsonRoutes, { ctx });
  // uploaded files (agency logos, creatives) before the dashboard, whose fallback would answer index.html
  await app.register(uploadsPlugin, { storage: ctx.storage });
  // the built dashboard, and the not-found answer of the whole server (index.html for deep links)
  await app.register(dashboardPlugin, { root: webDist, publicUrl: config.publicUrl });
}
