import { id, paged, pageQuery, pixel, pixelInput, pixelUpdate } from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { pixels } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';
import { pixelCode } from './pixels.audience.ts';

const params = z.object({ id });
type Row = typeof pixels.$inferSelect;

/** Remarketing pixels (SPEC.md section 2 "Pixels"); the public script and image are in delivery/pixel.routes.ts. */
export const pixelsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db } = ctx.database;
  const { users, config } = ctx;
  app.addHook('onRequest', app.authenticate);

  // raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
  const visitorsCount = sql<number>`(select count(*)::int from pixel_visitors pv where pv.pixel_id = pixels.id)`;
  const toPixel = (row: Row, visitors: number) => ({
    _id: String(row.id),
    user_id: String(row.userId),
    title: row.title,
    all_pages: row.allPages,
    code: pixelCode(config.publicUrl, row.id),
    visitors: Number(visitors),
    created_at: row.createdAt.toISOString(),
  });

  async function visible(pixelId: string, ability: AppAbility) {
    const [row] = await db
      .select({ p: pixels, n: visitorsCount })
      .from(pixels)
      .where(eq(pixels.id, Number(pixelId)));
    if (!row || !ability.can('read', subject('Pixel', { user_id: String(row.p.userId) })))
      throw new AppError(404, 'not_found');
    return row;
  }

  app.get(
    '/pixels',
    {
      schema: {
        tags: ['pixels'],
        querystring: pageQuery.extend({ user_id: id.optional() }),
        response: { 200: paged(pixel) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Pixel');
      const scope = readScope(req.ability, 'Pixel', 'user_id');
      const conds: SQL[] = [];
      if (scope !== 'all') conds.push(inArray(pixels.userId, scope.map(Number)));
      if (req.query.user_id) conds.push(eq(pixels.userId, Number(req.query.user_id)));
      const where = conds.length ? and(...conds) : undefined;
      const [total] = await db.select({ n: count() }).from(pixels).where(where);
      const rows = await db
        .select({ p: pixels, n: visitorsCount })
        .from(pixels)
        .where(where)
        .orderBy(desc(pixels.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map((r) => toPixel(r.p, r.n)),
        total: total?.n ?? 0,
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get('/pixels/:id', { schema: { tags: ['pixels'], params, response: { 200: pixel } } }, async (req) => {
    const row = await visible(req.params.id, req.ability);
    return toPixel(row.p, row.n);
  });

  app.post(
    '/pixels',
    { schema: { tags: ['pixels'], body: z.strictObject({ pixel: pixelInput }), response: { 201: pixel } } },
    async (req, reply) => {
      const { user_id, ...input } = req.body.pixel;
      const ownerId = user_id ?? String(req.user!.id);
      if (!(await users.findById(Number(ownerId)))) throw new AppError(422, 'not_found', {}, 'user_id');
      assertCan(req.ability, 'create', subject('Pixel', { user_id: ownerId }));
      const [row] = await db
        .insert(pixels)
        .values({ userId: Number(ownerId), title: input.title, allPages: input.all_pages })
        .returning();
      reply.code(201);
      return toPixel(row!, 0);
    },
  );

  app.put(
    '/pixels/:id',
    {
      schema: {
        tags: ['pixels'],
        params,
        body: z.strictObject({ pixel: pixelUpdate }),
        response: { 200: pixel },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Pixel', { user_id: String(row.p.userId) }));
      const { title, all_pages } = req.body.pixel;
      const set = {
        ...(title !== undefined ? { title } : {}),
        ...(all_pages !== undefined ? { allPages: all_pages } : {}),
      };
      if (Object.keys(set).length === 0) return toPixel(row.p, row.n);
      const [updated] = await db.update(pixels).set(set).where(eq(pixels.id, row.p.id)).returning();
      return toPixel(updated!, row.n);
    },
  );

  app.delete('/pixels/:id', { schema: { tags: ['pixels'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('Pixel', { user_id: String(row.p.userId) }));
    await db.delete(pixels).where(eq(pixels.id, row.p.id));
    return reply.code(204).send();
  });
};
