import { currency, currencyUpdate, id, paged, pageQuery, ratesRefreshResult } from '@adp/contract';
import { assertCan } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { toCurrency } from './currencies.repository.ts';

export const currenciesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { currencies } = ctx;
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/currencies',
    { schema: { tags: ['currencies'], querystring: pageQuery, response: { 200: paged(currency) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Currency');
      return currencies.repo.list(req.query);
    },
  );

  app.get(
    '/currencies/:id',
    { schema: { tags: ['currencies'], params: z.object({ id }), response: { 200: currency } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Currency');
      const row = await currencies.repo.findById(Number(req.params.id));
      if (!row) throw new AppError(404, 'not_found');
      return toCurrency(row);
    },
  );

  app.put(
    '/currencies/:id',
    {
      schema: {
        tags: ['currencies'],
        params: z.object({ id }),
        body: z.strictObject({ currency: currencyUpdate }),
        response: { 200: currency },
      },
    },
    async (req) => {
      assertCan(req.ability, 'update', 'Currency');
      return toCurrency(await currencies.service.update(Number(req.params.id), req.body.currency));
    },
  );

  app.post(
    '/currencies/refresh',
    { schema: { tags: ['currencies'], response: { 200: ratesRefreshResult } } },
    async (req) => {
      assertCan(req.ability, 'update', 'Currency');
      try {
        return await currencies.service.updateFromSource();
      } catch (err) {
        req.log.warn({ err }, 'exchange rates could not be loaded');
        throw new AppError(502, 'rates_unavailable');
      }
    },
  );
};
