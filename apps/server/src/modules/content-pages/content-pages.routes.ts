import { contentPage, contentPageEdit, contentPageUpdate, contentSlug, locale } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';

const params = z.object({ slug: contentSlug });

/**
 * The FAQ and contacts pages (SPEC.md section 2). Reading is public, so the pages can be linked from
 * anywhere (the login page too); admins write every language at once, read-only admins see the form.
 */
export const contentPagesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const service = ctx.contentPages;

  app.get(
    '/pages/:slug',
    {
      schema: {
        tags: ['pages'],
        security: [],
        params,
        querystring: z.object({ locale: locale.optional() }),
        response: { 200: contentPage },
      },
    },
    async (req) => service.read(req.params.slug, req.query.locale ?? req.locale),
  );

  app.get(
    '/pages/:slug/edit',
    { onRequest: app.authenticate, schema: { tags: ['pages'], params, response: { 200: contentPageEdit } } },
    async (req) => {
      assertCan(req.ability, 'read', 'System');
      return service.edit(req.params.slug);
    },
  );

  app.put(
    '/pages/:slug',
    {
      onRequest: app.authenticate,
      schema: { tags: ['pages'], params, body: contentPageUpdate, response: { 200: contentPageEdit } },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'System');
      return service.save(req.params.slug, req.body.page.bodies, req.user!.id);
    },
  );
};
