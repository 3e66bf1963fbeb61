import { decodedUrl, decodeUrlRequest } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';

/** POST /api/decode-url (admins, read-only admins too): what a URL says; see decode-url.service.ts. */
export const decodeUrlRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  app.post(
    '/decode-url',
    { schema: { tags: ['decode-url'], body: decodeUrlRequest, response: { 200: decodedUrl } } },
    async (req) => {
      assertCan(req.ability, 'read', 'DecodeUrl');
      return ctx.decodeUrl.decode(req.body.url);
    },
  );
};
