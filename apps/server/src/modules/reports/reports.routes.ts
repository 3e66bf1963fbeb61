import { reportAnswer, reportFileName, reportsExportQuery, reportsQuery } from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { csvFile, primed, xlsxFile } from './report-files.ts';

/**
 * Reports cover every user's sites, campaigns and money: only who may read any user's reports (admin and
 * adminreadonly) may ask; anyone else is a 403.
 */
const assertAllReports = (ability: AppAbility) =>
  assertCan(ability, 'read', subject('Report', { user_id: '' }));

const contentTypes = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * GET /api/reports?type=…: one page of an admin report `{rows, total}`; GET /api/reportsexport?type=…&format=
 * csv|xlsx: every row of it as a file, streamed as the database is read in chunks.
 */
export const reportsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.authenticate);
  const { reports } = ctx;

  app.get(
    '/reports',
    { schema: { tags: ['reports'], querystring: reportsQuery, response: { 200: reportAnswer } } },
    async (req) => {
      assertAllReports(req.ability);
      const { page, limit, ...filters } = req.query;
      return reports.page(filters, { page, limit });
    },
  );

  app.get(
    '/reportsexport',
    { schema: { tags: ['reports'], querystring: reportsExportQuery } },
    async (req, reply) => {
      assertAllReports(req.ability);
      const { format, ...filters } = req.query;
      // the filters are checked (an unknown id is a 404) before the file starts
      // and the first chunk is read before it starts too: a failure there (a timezone the database does not
      // know) is an error answer, not a file cut off after its header row
      const chunks = await primed(await reports.rows(filters));
      const columns = reports.columns(filters);
      const { from, to } = reports.range(filters);
      const file = format === 'csv' ? csvFile(columns, chunks) : xlsxFile(columns, chunks);
      return reply
        .header('content-type', contentTypes[format])
        .header(
          'content-disposition',
          `attachment; filename="${reportFileName(filters.type, from, to, format)}"`,
        )
        .header('cache-control', 'no-store')
        .send(file);
    },
  );
};
