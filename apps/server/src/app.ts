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
import { createMailer } from './lib/mailer.ts';
import { memoryStore, redisStore, type SharedStore } from './lib/shared-store.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { authenticatePlugin } from './plugins/authenticate.ts';
import { dashboardPlugin } from './plugins/dashboard.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { requestLocalePlugin } from './plugins/request-locale.ts';
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
  const users = createUsersRepository(database.db, config.publicUrl);
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
  const ctx: AppContext = { config, database, store, mailer, users, auth };
  // While shutting down, answers in flight close their keep-alive socket, so close() need not wait for
  // the keep-alive timeout of a client that will never send again.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
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
    },
    { prefix: '/api' },
  );
  await app.register(dashboardPlugin, { root: config.webDist ?? defaultWebDist });

  await auth.ensureAdmin(app.log);
  return app;
}
