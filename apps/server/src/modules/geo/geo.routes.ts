import { countryCode, locale } from '@adp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { citiesById, countryNames, searchCities } from './geo.service.ts';

const MAX_IDS = 1000;

export const countriesQuery = z.object({ lang: locale.optional() });
export const citiesQuery = z.object({
  q: z.string().max(100).optional(),
  country: countryCode.optional(),
  /** Comma-separated GeoNames ids: the cities of a saved targeting. */
  ids: z
    .string()
    .regex(/^\d{1,10}(,\d{1,10})*$/, { message: 'invalid' })
    .refine((s) => s.split(',').length <= MAX_IDS, { message: 'invalid' })
    .optional(),
});
export const countryName = z.object({ code: z.string(), name: z.string() });
export const cityName = z.object({ id: z.int(), name: z.string(), country: z.string(), population: z.int() });

/** Country and city names for the targeting editor (ISO 3166-1 and GeoNames via data packages). */
export const geoRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/geo/countries',
    { schema: { tags: ['geo'], querystring: countriesQuery, response: { 200: z.array(countryName) } } },
    async (req) => countryNames(req.query.lang ?? req.locale),
  );

  app.get(
    '/geo/cities',
    { schema: { tags: ['geo'], querystring: citiesQuery, response: { 200: z.array(cityName) } } },
    async (req) => {
      const { q, country, ids } = req.query;
      if (ids !== undefined) return citiesById(ids.split(',').map(Number));
      return searchCities({ q, country });
    },
  );
};
