import { id } from '@adp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * The entity types the generic delete knows, each the path of its resource's own `DELETE /api/<path>/{id}`.
 * The resource names of DESIGN.md are the types; the singular names are accepted as well.
 */
export const deletableTypes = {
  sites: 'sites',
  widgets: 'widgets',
  promotions: 'promotions',
  promotionpages: 'promotionpages',
  socialgroups: 'socialgroups',
  campaigns: 'campaigns',
  banners: 'banners',
  landings: 'landings',
  pixels: 'pixels',
  agencies: 'agencies',
  partners: 'partners',
  dsppartners: 'dsppartners',
  dsppartnerblacklist: 'dsppartnerblacklist',
  prebidpartners: 'prebidpartners',
  rtbpartners: 'rtbpartners',
} as const;

const singular: Record<string, keyof typeof deletableTypes> = {
  site: 'sites',
  widget: 'widgets',
  promotion: 'promotions',
  promotionpage: 'promotionpages',
  socialgroup: 'socialgroups',
  campaign: 'campaigns',
  banner: 'banners',
  landing: 'landings',
  pixel: 'pixels',
  agency: 'agencies',
  partner: 'partners',
  dsppartner: 'dsppartners',
  prebidpartner: 'prebidpartners',
  rtbpartner: 'rtbpartners',
};

export function deletePathOf(type: string): string | undefined {
  const key = type.toLowerCase();
  if (Object.hasOwn(deletableTypes, key)) return deletableTypes[key as keyof typeof deletableTypes];
  if (Object.hasOwn(singular, key)) return deletableTypes[singular[key]!];
  return undefined;
}

const params = z.object({ type: z.string().max(64), id });

/**
 * SPEC.md section 7, "generic DELETE of an entity by type and id": `DELETE /api/entities/{type}/{id}`.
 *
 * It answers exactly what the resource's own `DELETE /api/<type>/{id}` answers, because it is that call:
 * the request goes in-process (no network) to the resource's route with the caller's bearer token,
 * language and address, so the one place that holds a resource's delete rules (who may, which ids the
 * caller sees: 404 for a foreign one, 403 for a read-only role, the audit log, the cascades) stays the
 * only one. An unknown type is a 400 naming the known ones.
 */
export const entitiesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.delete('/entities/:type/:id', { schema: { tags: ['entities'], params } }, async (req, reply) => {
    const path = deletePathOf(req.params.type);
    if (!path) {
      throw new AppError(400, 'unknown_entity_type', {
        type: req.params.type,
        types: Object.keys(deletableTypes).join(', '),
      });
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'accept-language'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/${path}/${encodeURIComponent(req.params.id)}`,
      headers,
      remoteAddress: req.ip,
    });
    reply.code(res.statusCode);
    if (res.statusCode === 204 || res.body === '') return reply.send();
    const type = res.headers['content-type'];
    if (typeof type === 'string') reply.type(type);
    return reply.send(res.body);
  });
};
