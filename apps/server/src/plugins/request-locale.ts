import type { Locale } from '@adp/contract';
import { pickLocale } from '@adp/i18n';
import fp from 'fastify-plugin';
import type { TFunction } from 'i18next';
import { translator } from '../lib/i18n.ts';

declare module 'fastify' {
  interface FastifyRequest {
    locale: Locale;
    t: TFunction;
  }
}

/** Every answer and e-mail speaks the caller's language (Accept-Language, English when none fits). */
export const requestLocalePlugin = fp(async (app) => {
  app.decorateRequest('locale', 'en');
  app.decorateRequest('t', null as unknown as TFunction);
  app.addHook('onRequest', async (req) => {
    req.locale = pickLocale(req.headers['accept-language']);
    req.t = translator(req.locale);
  });
});
