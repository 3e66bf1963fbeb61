import {
  id,
  landing,
  landingGenerate,
  landingInput,
  landingLead,
  landingUpdate,
  paged,
  pageQuery,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { landingLeads, landings } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';
import { sanitizeLanding } from './landing-generator.ts';
import { buildLandingHtml, formOf, landingPath, newSlug, toLanding } from './landings.service.ts';

const params = z.object({ id });
/** A CSV export reads at most this many leads; beyond it the owner pages through the JSON list. */
const CSV_MAX_ROWS = 100_000;

/** A cell as spreadsheets read it: always quoted, and never a formula (CSV injection). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** Landing pages with their form, generated page and leads (SPEC.md section 2 "Landings"). */
export const landingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db } = ctx.database;
  const { users, config, landingGenerator } = ctx;
  app.addHook('onRequest', app.authenticate);

  // raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
  const leadsCount = sql<number>`(select count(*)::int from landing_leads ll where ll.landing_id = landings.id)`;

  async function visible(landingId: string, ability: AppAbility) {
    const [row] = await db
      .select({ l: landings, n: leadsCount })
      .from(landings)
      .where(eq(landings.id, Number(landingId)));
    if (!row || !ability.can('read', subject('Landing', { user_id: String(row.l.userId) })))
      throw new AppError(404, 'not_found');
    return row;
  }
  const out = (row: { l: typeof landings.$inferSelect; n: number }) =>
    toLanding(row.l, row.n, config.publicUrl);

  app.get(
    '/landings',
    {
      schema: {
        tags: ['landings'],
        querystring: pageQuery.extend({ user_id: id.optional() }),
        response: { 200: paged(landing) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Landing');
      const scope = readScope(req.ability, 'Landing', 'user_id');
      const conds: SQL[] = [];
      if (scope !== 'all') conds.push(inArray(landings.userId, scope.map(Number)));
      if (req.query.user_id) conds.push(eq(landings.userId, Number(req.query.user_id)));
      const where = conds.length ? and(...conds) : undefined;
      const [total] = await db.select({ n: count() }).from(landings).where(where);
      const rows = await db
        .select({ l: landings, n: leadsCount })
        .from(landings)
        .where(where)
        .orderBy(desc(landings.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map(out),
        total: total?.n ?? 0,
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get(
    '/landings/:id',
    { schema: { tags: ['landings'], params, response: { 200: landing } } },
    async (req) => out(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/landings',
    {
      schema: {
        tags: ['landings'],
        body: z.strictObject({ landing: landingInput }),
        response: { 201: landing },
      },
    },
    async (req, reply) => {
      const { user_id, ...input } = req.body.landing;
      const ownerId = user_id ?? String(req.user!.id);
      if (!(await users.findById(Number(ownerId)))) throw new AppError(422, 'not_found', {}, 'user_id');
      assertCan(req.ability, 'create', subject('Landing', { user_id: ownerId }));
      const [row] = await db
        .insert(landings)
        .values({
          userId: Number(ownerId),
          slug: newSlug(input.title),
          title: input.title,
          status: input.status,
          headline: input.headline,
          description: input.description,
          form: input.form,
        })
        .returning();
      reply.code(201);
      return toLanding(row!, 0, config.publicUrl);
    },
  );

  app.put(
    '/landings/:id',
    {
      schema: {
        tags: ['landings'],
        params,
        body: z.strictObject({ landing: landingUpdate }),
        response: { 200: landing },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Landing', { user_id: String(row.l.userId) }));
      const { html, ...rest } = req.body.landing;
      // a page edited by hand is held to the same rules as a generated one
      const page =
        html === undefined
          ? {}
          : html === null || html.trim() === ''
            ? { html: null, generatedAt: null }
            : { html: sanitizeLanding(html, landingPath(row.l.slug)) };
      const [updated] = await db
        .update(landings)
        .set({ ...rest, ...page, updatedAt: new Date() })
        .where(eq(landings.id, row.l.id))
        .returning();
      return toLanding(updated!, row.n, config.publicUrl);
    },
  );

  app.delete('/landings/:id', { schema: { tags: ['landings'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('Landing', { user_id: String(row.l.userId) }));
    await db.delete(landings).where(eq(landings.id, row.l.id));
    return reply.code(204).send();
  });

  // SPEC.md section 7: "generate POST with user_id and page_id" (page_id is the landing's id)
  app.post(
    '/landings/generate',
    { schema: { tags: ['landings'], body: landingGenerate, response: { 200: landing } } },
    async (req) => {
      const row = await visible(req.body.page_id, req.ability);
      if (String(row.l.userId) !== req.body.user_id) throw new AppError(404, 'not_found');
      assertCan(req.ability, 'update', subject('Landing', { user_id: String(row.l.userId) }));
      if (formOf(row.l).fields.length === 0) throw new AppError(422, 'landing_needs_form', {}, 'form');
      const html = await buildLandingHtml(landingGenerator, row.l, req.body.locale ?? req.locale);
      const [updated] = await db
        .update(landings)
        .set({ html, generatedAt: new Date(), updatedAt: new Date() })
        .where(eq(landings.id, row.l.id))
        .returning();
      return toLanding(updated!, row.n, config.publicUrl);
    },
  );

  app.get(
    '/landings/:id/leads',
    {
      schema: {
        tags: ['landings'],
        params,
        querystring: pageQuery,
        response: { 200: paged(landingLead) },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      const rows = await db
        .select()
        .from(landingLeads)
        .where(eq(landingLeads.landingId, row.l.id))
        .orderBy(desc(landingLeads.createdAt), desc(landingLeads.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map((r) => ({
          _id: String(r.id),
          landing_id: String(r.landingId),
          data: r.data,
          date: r.createdAt.toISOString(),
        })),
        total: Number(row.n),
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get(
    '/landings/:id/leads.csv',
    { schema: { tags: ['landings'], params, produces: ['text/csv'] } },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      const rows = await db
        .select()
        .from(landingLeads)
        .where(eq(landingLeads.landingId, row.l.id))
        .orderBy(asc(landingLeads.createdAt), asc(landingLeads.id))
        .limit(CSV_MAX_ROWS);
      // the form's fields first, then any a lead kept from an older version of the form
      const columns = formOf(row.l).fields.map((f) => ({ name: f.name, label: f.label }));
      const known = new Set(columns.map((c) => c.name));
      for (const r of rows)
        for (const key of Object.keys(r.data))
          if (!known.has(key)) {
            known.add(key);
            columns.push({ name: key, label: key });
          }
      const lines = [
        [...columns.map((c) => c.label), req.t('landingpage:csv_date')].map(csvCell).join(','),
        ...rows.map((r) =>
          [...columns.map((c) => r.data[c.name] ?? ''), r.createdAt.toISOString()].map(csvCell).join(','),
        ),
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="landing-${row.l.id}-leads.csv"`)
        .header('cache-control', 'no-store')
        .send(`\uFEFF${lines.join('\r\n')}\r\n`);
    },
  );
};
