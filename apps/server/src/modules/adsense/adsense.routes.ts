import {
  adsenseApprove,
  adsenseImport,
  adsenseImportDetail,
  id,
  paged,
  pageQuery,
  siteAdsenseDay,
} from '@adp/contract';
import { assertCan } from '@adp/permissions';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { visibleBy } from '../../lib/visible.ts';
import type { Translate } from './adsense.service.ts';

/** An AdSense report of 10,000 rows in UTF-16 stays well under this. */
const REPORT_MAX_BYTES = 5 * 1024 * 1024;
const params = z.object({ id });

const translator =
  (req: FastifyRequest): Translate =>
  (code, field) =>
    req.t(`errors:${code}`, { field: req.t(`fields:${field}`, { defaultValue: field }) });

/** The one uploaded file and its name; a missing, empty or oversized file is a 422 on `file`. */
async function readReport(req: FastifyRequest) {
  try {
    const file = await req.file();
    const bytes = await file?.toBuffer();
    if (file && bytes?.length && !file.file.truncated) return { bytes, name: file.filename };
  } catch (err) {
    if (!String((err as { code?: string }).code ?? '').startsWith('FST_')) throw err;
  }
  throw new AppError(422, 'invalid_file', {}, 'file');
}

/**
 * Adsense incomes (SPEC.md section 7, DESIGN.md "Calls beyond plain resources"): `POST
 * /api/adsense/upload` (multipart `file`), `POST /api/adsense/approve` (`{adsense: {_id, rows}}`),
 * `GET /api/adsense` (page, limit) and `GET /api/adsense/{id}`. Admins; read-only admins may look. And
 * `GET /api/sites/{id}/adsense-incomes`: a site's credited days, for whoever may read the site.
 */
export const adsenseRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { adsense } = ctx;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: REPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  app.post(
    '/adsense/upload',
    {
      schema: {
        tags: ['adsense'],
        consumes: ['multipart/form-data'],
        response: { 201: adsenseImportDetail },
      },
    },
    async (req, reply) => {
      assertCan(req.ability, 'create', 'Adsense');
      const { bytes, name } = await readReport(req);
      const out = await adsense.upload(bytes, name, req.user!.id, translator(req));
      reply.code(201);
      return out;
    },
  );

  app.post(
    '/adsense/approve',
    { schema: { tags: ['adsense'], body: adsenseApprove, response: { 200: adsenseImportDetail } } },
    async (req) => {
      assertCan(req.ability, 'update', 'Adsense');
      return adsense.approve(req.body.adsense, req.user!.id, translator(req));
    },
  );

  app.get(
    '/adsense',
    { schema: { tags: ['adsense'], querystring: pageQuery, response: { 200: paged(adsenseImport) } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Adsense');
      return adsense.list(req.query);
    },
  );

  // a site's credited AdSense days: for whoever may read the site (its owner, its agency, admins)
  const site = visibleBy('Site', ctx.sitesRepo.row);
  app.get(
    '/sites/:id/adsense-incomes',
    {
      schema: {
        tags: ['adsense'],
        params,
        querystring: pageQuery,
        response: { 200: paged(siteAdsenseDay) },
      },
    },
    async (req) => {
      const row = await site(req.params.id, req.ability);
      return adsense.siteDays(row.id, req.query);
    },
  );

  app.get(
    '/adsense/:id',
    { schema: { tags: ['adsense'], params, response: { 200: adsenseImportDetail } } },
    async (req) => {
      assertCan(req.ability, 'read', 'Adsense');
      return adsense.detail(Number(req.params.id), translator(req));
    },
  );
};
