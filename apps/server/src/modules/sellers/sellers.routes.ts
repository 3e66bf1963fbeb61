import { adsTxtCheck, adsTxtLine, id, sellersJson } from '@adp/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { visibleBy } from '../../lib/visible.ts';
import { SELLERS_TTL_MS } from './sellers.service.ts';

/** GET /sellers.json at the root: public, cached (IAB sellers.json 1.0). */
export const sellersJsonRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { sellers } = ctx;
  app.get('/sellers.json', { schema: { hide: true } }, async (_req, reply) => {
    reply.header('cache-control', `public, max-age=${SELLERS_TTL_MS / 1000}`);
    reply.header('access-control-allow-origin', '*');
    return sellersJson.parse(await sellers.sellersJson());
  });
};

/**
 * The ads.txt line of a site's owner and its check, for whoever may read the site:
 * GET /api/sites/:id/adstxt and POST /api/sites/:id/adstxt/check.
 */
export const adsTxtRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { sellers } = ctx;
  const visible = visibleBy('Site', ctx.sitesRepo.row);
  const params = z.object({ id });
  app.addHook('onRequest', app.authenticate);

  const lineOf = (site: { userId: number; domain: string }) => ({
    line: sellers.line(String(site.userId)),
    seller_id: String(site.userId),
    url: `https://${site.domain}/ads.txt`,
  });

  app.get(
    '/sites/:id/adstxt',
    { schema: { tags: ['sites'], params, response: { 200: adsTxtLine } } },
    async (req) => lineOf(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/sites/:id/adstxt/check',
    { schema: { tags: ['sites'], params, response: { 200: adsTxtCheck } } },
    async (req) => {
      const site = await visible(req.params.id, req.ability);
      const { url, seller_id } = lineOf(site);
      const secure = await sellers.check(url, seller_id);
      // ads.txt crawlers read plain http too: a site without https is checked there
      if (secure.error !== 'unreachable') return secure;
      const plain = await sellers.check(`http://${site.domain}/ads.txt`, seller_id);
      return plain.error === 'unreachable' ? secure : plain;
    },
  );
};
