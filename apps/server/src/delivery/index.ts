import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { landingPageRoutes } from '../modules/landings/landing-page.routes.ts';
import { rtbRoutes } from '../modules/rtb/rtb.routes.ts';
import { sandboxPageRoutes } from '../modules/topups/topups.routes.ts';
import { requestLocalePlugin } from '../plugins/request-locale.ts';
import { deliveryErrorHandler } from './errors.ts';
import { pixelRoutes } from './pixel.routes.ts';
import { serveRoutes } from './serve.routes.ts';
import { widgetScriptRoutes } from './widget-script.ts';

const pageCsp =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * The delivery tree: what publishers' and advertisers' pages and their visitors load. Encapsulated and
 * self-contained (its own hooks and error handler, nothing from the API tree: no helmet, no locale, no
 * login, no rate limit, no per-request info log line), so it can move to a process of its own with
 * this folder. Read top to bottom:
 */
export async function deliveryTree(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // every route here logs its requests at debug only (src/lib/request-log.ts); errors are still logged
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, quietLog: true };
  });
  // JSON answers with a stable code, for scripts rather than people: no translation
  app.setErrorHandler(deliveryErrorHandler);
  // no per-request child logger (a pino child costs more than some answers here) unless someone is
  // debugging; error lines say which request failed (deliveryErrorHandler logs the URL)
  app.setChildLoggerFactory((logger, bindings, opts) =>
    logger.level === 'debug' || logger.level === 'trace' ? logger.child(bindings, opts) : logger,
  );

  // 1. Loaded by other sites' pages: readable from any origin, and nothing but the answer.
  await app.register(async (embedded) => {
    embedded.addHook('onRequest', (_req, reply, done) => {
      reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
      done();
    });
    await embedded.register(widgetScriptRoutes);
    await embedded.register(serveRoutes, { ctx });
    await embedded.register(pixelRoutes, { ctx });
  });

  // 2. Pages people read and submit (landing pages, the sandbox payment page): these speak the
  //    visitor's language and read forms, so locale and form parsing live here and nowhere else.
  await app.register(async (pages) => {
    // what a page needs instead of helmet: no sniffing, no framing, nothing loaded from elsewhere
    // (landing pages answer their own, looser CSP: images from https, frames on our own pages)
    pages.addHook('onRequest', (_req, reply, done) => {
      reply
        .header('content-security-policy', pageCsp)
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'strict-origin-when-cross-origin');
      done();
    });
    await pages.register(requestLocalePlugin);
    await pages.register(formbody, { bodyLimit: 16 * 1024 });
    await pages.register(landingPageRoutes, { ctx });
    // the page that credits balances without money exists only where PAYMENT_SANDBOX=on
    if (ctx.config.paymentSandbox) await pages.register(sandboxPageRoutes, { ctx });
  });

  // 3. The exchange's inbound bidder and its notices: partners' servers, not pages (modules/rtb).
  await app.register(rtbRoutes, { ctx });
}
