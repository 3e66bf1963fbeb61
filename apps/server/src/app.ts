import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apiTree } from './api.ts';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import type { Database } from './db/client.ts';
import { beaconFastPath } from './delivery/beacon-fast-path.ts';
import { clickFastPath } from './delivery/click-fast-path.ts';
import type { DeliveryEngine } from './delivery/engine.ts';
import { type Front, installFront } from './delivery/http-front.ts';
import { deliveryTree } from './delivery/index.ts';
import { serveFastPath } from './delivery/serve-fast-path.ts';
import { widgetScriptFastPath } from './delivery/widget-script.ts';
import { RequestLogController } from './lib/request-log.ts';
import type { SharedStore } from './lib/shared-store.ts';
import { rtbFastPath } from './modules/rtb/rtb-fast-path.ts';
import { serializerCompiler, validatorCompiler } from './plugins/zod.ts';
import { createServices, startServices } from './services.ts';

export interface BuildOptions {
  config: Config;
  database: Database;
  store?: SharedStore;
  logger?: boolean | object;
}

const contexts = new WeakMap<FastifyInstance, AppContext>();
/** The services of a built app (tests and scripts that drive the server in-process). */
export function contextOf(app: FastifyInstance): AppContext {
  const ctx = contexts.get(app);
  if (!ctx) throw new Error('not an app built by buildApp');
  return ctx;
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * The whole server as a table of contents: the services (src/services.ts), the lifecycle, then two
 * encapsulated route trees that share nothing but the services: delivery (src/delivery) and the API with
 * the dashboard (src/api.ts). Each tree brings its own hooks and error handler.
 */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config, database } = opts;
  const lifecycle: {
    closing: boolean;
    engine?: DeliveryEngine;
    ctx?: AppContext;
    log?: FastifyBaseLogger;
    front?: Front;
  } = {
    closing: false,
  };
  // the embed script, the beacons, the widget request, the click and the bid endpoints, the most requested
  // URLs, are answered before the framework (delivery/widget-script.ts, delivery/beacon-fast-path.ts,
  // delivery/serve-fast-path.ts, delivery/click-fast-path.ts, modules/rtb/rtb-fast-path.ts; all but the
  // script once the services exist)
  const scriptFastPath = widgetScriptFastPath(lifecycle);
  const beaconsFastPath = beaconFastPath(lifecycle);
  const widgetsFastPath = serveFastPath(lifecycle);
  const bidFastPath = rtbFastPath(lifecycle);
  const clicksFastPath = clickFastPath(lifecycle);
  const app = Fastify({
    // Fastify sets no timeouts on a server of its factory: ours, for every route and the fast paths
    serverFactory: (handler) => {
      const { headersTimeout, requestTimeout, keepAliveTimeout } = config.http;
      const server = createServer(
        {
          headersTimeout,
          requestTimeout,
          // how often Node looks for sockets past those limits (its default, 30 s, would let a slow
          // client keep one up to 30 s longer): a quarter of the head's limit, at most every second
          connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(headersTimeout / 4))),
        },
        (req, res) => {
          if (
            !scriptFastPath(req, res) &&
            !beaconsFastPath(req, res) &&
            !widgetsFastPath(req, res) &&
            !clicksFastPath(req, res) &&
            !bidFastPath(req, res)
          )
            handler(req, res);
        },
      );
      server.keepAliveTimeout = keepAliveTimeout;
      // every connection starts at the delivery front (delivery/http-front.ts), which answers the fast
      // paths' requests without node:http's objects and hands the connection to node:http (its own
      // connection listener, taken off the server) at the first request that no fast path takes
      lifecycle.front = installFront(server, {
        fastPaths: [scriptFastPath, beaconsFastPath, widgetsFastPath, clicksFastPath],
        bodyPaths: [bidFastPath],
        closing: () => lifecycle.closing,
        headersTimeout,
        requestTimeout,
        keepAliveTimeout,
      });
      return server;
    },
    logger: opts.logger ?? { level: config.logLevel },
    // per-request log lines at info for the API, at debug for delivery
    logController: new RequestLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // keep-alive sockets must not hold a graceful shutdown open
    forceCloseConnections: 'idle',
    // delivery tokens travel in the path (an impression token names every item of its answer)
    routerOptions: { maxParamLength: 16_384 },
  }).withTypeProvider<ZodTypeProvider>();
  // JSON, and forms where a tree registers them; anything else is 415
  app.removeContentTypeParser('text/plain');
  // zod schemas validate and serialise in both trees; the error keeps zod's issues for the handlers
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // 1. Services, built once in dependency order: every route tree gets this ctx.
  const ctx = await createServices(config, database, app.log, opts.store);
  contexts.set(app, ctx);
  lifecycle.engine = ctx.delivery.engine;
  lifecycle.ctx = ctx;
  lifecycle.log = app.log;

  // 2. Lifecycle. While shutting down, answers in flight close their keep-alive socket, so close() need
  //    not wait for the keep-alive timeout of a client that will never send again; timers stop and runs
  //    in flight and mail deferred past an answer finish while the database is still open; the store and the database close last.
  app.addHook('preClose', (done) => {
    lifecycle.closing = true;
    lifecycle.front?.closeIdle();
    done();
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (lifecycle.closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('preClose', () => ctx.jobs.stop());
  // mail deferred past an answer (reset links, e-mail confirmations) is written before the database closes
  app.addHook('preClose', () => ctx.mailer.settle());
  app.addHook('onClose', async () => {
    lifecycle.front?.stop();
    // delivery: clicks in their transaction and buffered impressions are written before the database closes
    await ctx.delivery.stopListening();
    ctx.delivery.index.stop();
    ctx.delivery.counters.stop();
    await ctx.delivery.engine.close();
    await ctx.delivery.exchange.close();
    ctx.delivery.visitors.close();
    await ctx.store.close();
    await database.close();
  });

  // 3. Delivery first: the hot path (/widget.js, /serve, pixels, landing pages, the sandbox page) with
  //    its own minimal hooks, registered before anything the API adds so none of it applies here.
  await app.register(deliveryTree, { ctx });

  // 4. The dashboard API under /api and the dashboard: locale, errors, helmet, rate limit, login, OpenAPI.
  await app.register(apiTree, { ctx, webDist: config.webDist ?? defaultWebDist });

  // 5. Start-up work: the configured admin, currencies, and the scheduled jobs unless JOBS=off.
  await startServices(ctx, app.log);
  return app;
}
