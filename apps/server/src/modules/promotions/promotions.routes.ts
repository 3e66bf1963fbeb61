import { randomBytes } from 'node:crypto';
import {
  id,
  paged,
  pageQuery,
  promotion,
  promotionInput,
  promotionPage,
  promotionPageInput,
  promotionPageUpdate,
  promotionUpdate,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { promotionPages, promotions, sites } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { readScope } from '../../lib/scope.ts';
import { readImageUpload } from '../../lib/upload.ts';

const params = z.object({ id });
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

type PromotionRow = typeof promotions.$inferSelect;
type PageRow = typeof promotionPages.$inferSelect;

/** Promotions of a site and their pages (SPEC.md section 2 "Promotions"). */
export const promotionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db } = ctx.database;
  const { storage, config } = ctx;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  // raw names: inside a one-table select drizzle leaves columns unqualified, which a subquery would misread
  const pagesCount = sql<number>`(select count(*)::int from promotion_pages pp where pp.promotion_id = promotions.id)`;
  const toPromotion = (row: PromotionRow, pages: number) => ({
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(row.siteId),
    title: row.title,
    description: row.description,
    url: row.url,
    status: row.status as 'active' | 'inactive',
    starts_at: row.startsAt?.toISOString() ?? null,
    ends_at: row.endsAt?.toISOString() ?? null,
    pages_count: pages,
    created_at: row.createdAt.toISOString(),
  });
  const toPage = (row: PageRow, siteId: number) => ({
    _id: String(row.id),
    user_id: String(row.userId),
    site_id: String(siteId),
    promotion_id: String(row.promotionId),
    title: row.title,
    text: row.text,
    url: row.url,
    status: row.status as 'active' | 'inactive',
    image: row.image ? `${config.publicUrl}/uploads/${row.image}` : null,
    created_at: row.createdAt.toISOString(),
  });

  const can = (
    ability: AppAbility,
    action: 'read' | 'create' | 'update' | 'delete',
    kind: 'Promotion' | 'PromotionPage',
    userId: number,
  ) => ability.can(action, subject(kind, { user_id: String(userId) }));

  async function visiblePromotion(promotionId: string | number, ability: AppAbility) {
    const [row] = await db
      .select({ p: promotions, n: pagesCount })
      .from(promotions)
      .where(eq(promotions.id, Number(promotionId)));
    if (!row || !can(ability, 'read', 'Promotion', row.p.userId)) throw new AppError(404, 'not_found');
    return row;
  }
  async function visiblePage(pageId: string, ability: AppAbility) {
    const [row] = await db
      .select({ pg: promotionPages, siteId: promotions.siteId })
      .from(promotionPages)
      .innerJoin(promotions, eq(promotions.id, promotionPages.promotionId))
      .where(eq(promotionPages.id, Number(pageId)));
    if (!row || !can(ability, 'read', 'PromotionPage', row.pg.userId)) throw new AppError(404, 'not_found');
    return row;
  }
  const dates = (v: { starts_at?: string | null; ends_at?: string | null }) => ({
    ...(v.starts_at !== undefined ? { startsAt: v.starts_at ? new Date(v.starts_at) : null } : {}),
    ...(v.ends_at !== undefined ? { endsAt: v.ends_at ? new Date(v.ends_at) : null } : {}),
  });
  function checkOrder(starts: Date | null, ends: Date | null) {
    if (starts && ends && ends <= starts) throw new AppError(422, 'ends_before_start', {}, 'ends_at');
  }

  app.get(
    '/promotions',
    {
      schema: {
        tags: ['promotions'],
        querystring: pageQuery.extend({ site_id: id.optional() }),
        response: { 200: paged(promotion) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Promotion');
      const scope = readScope(req.ability, 'Promotion', 'user_id');
      const conds: SQL[] = [];
      if (scope !== 'all') conds.push(inArray(promotions.userId, scope.map(Number)));
      if (req.query.site_id) conds.push(eq(promotions.siteId, Number(req.query.site_id)));
      const where = conds.length ? and(...conds) : undefined;
      const [total] = await db.select({ n: count() }).from(promotions).where(where);
      const rows = await db
        .select({ p: promotions, n: pagesCount })
        .from(promotions)
        .where(where)
        .orderBy(desc(promotions.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map((r) => toPromotion(r.p, r.n)),
        total: total?.n ?? 0,
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get(
    '/promotions/:id',
    { schema: { tags: ['promotions'], params, response: { 200: promotion } } },
    async (req) => {
      const row = await visiblePromotion(req.params.id, req.ability);
      return toPromotion(row.p, row.n);
    },
  );

  app.post(
    '/promotions',
    {
      schema: {
        tags: ['promotions'],
        body: z.strictObject({ promotion: promotionInput }),
        response: { 201: promotion },
      },
    },
    async (req, reply) => {
      const input = req.body.promotion;
      const [site] = await db
        .select()
        .from(sites)
        .where(eq(sites.id, Number(input.site_id)));
      if (!site || !req.ability.can('read', subject('Site', { user_id: String(site.userId) }))) {
        throw new AppError(422, 'not_found', {}, 'site_id');
      }
      assertCan(req.ability, 'create', subject('Promotion', { user_id: String(site.userId) }));
      const d = dates(input);
      checkOrder(d.startsAt ?? null, d.endsAt ?? null);
      const [row] = await db
        .insert(promotions)
        .values({
          siteId: site.id,
          userId: site.userId,
          title: input.title,
          description: input.description,
          url: input.url,
          status: input.status,
          ...d,
        })
        .returning();
      reply.code(201);
      return toPromotion(row!, 0);
    },
  );

  app.put(
    '/promotions/:id',
    {
      schema: {
        tags: ['promotions'],
        params,
        body: z.strictObject({ promotion: promotionUpdate }),
        response: { 200: promotion },
      },
    },
    async (req) => {
      const row = await visiblePromotion(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('Promotion', { user_id: String(row.p.userId) }));
      const { starts_at, ends_at, ...rest } = req.body.promotion;
      const d = dates({ starts_at, ends_at });
      checkOrder(
        d.startsAt !== undefined ? d.startsAt : row.p.startsAt,
        d.endsAt !== undefined ? d.endsAt : row.p.endsAt,
      );
      const [updated] = await db
        .update(promotions)
        .set({ ...rest, ...d })
        .where(eq(promotions.id, row.p.id))
        .returning();
      return toPromotion(updated!, row.n);
    },
  );

  app.delete('/promotions/:id', { schema: { tags: ['promotions'], params } }, async (req, reply) => {
    const row = await visiblePromotion(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('Promotion', { user_id: String(row.p.userId) }));
    await db.delete(promotions).where(eq(promotions.id, row.p.id));
    return reply.code(204).send();
  });

  app.get(
    '/promotionpages',
    {
      schema: {
        tags: ['promotions'],
        querystring: pageQuery.extend({ promotion_id: id.optional() }),
        response: { 200: paged(promotionPage) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'PromotionPage');
      const scope = readScope(req.ability, 'PromotionPage', 'user_id');
      const conds: SQL[] = [];
      if (scope !== 'all') conds.push(inArray(promotionPages.userId, scope.map(Number)));
      if (req.query.promotion_id) conds.push(eq(promotionPages.promotionId, Number(req.query.promotion_id)));
      const where = conds.length ? and(...conds) : undefined;
      const [total] = await db.select({ n: count() }).from(promotionPages).where(where);
      const rows = await db
        .select({ pg: promotionPages, siteId: promotions.siteId })
        .from(promotionPages)
        .innerJoin(promotions, eq(promotions.id, promotionPages.promotionId))
        .where(where)
        .orderBy(desc(promotionPages.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map((r) => toPage(r.pg, r.siteId)),
        total: total?.n ?? 0,
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get(
    '/promotionpages/:id',
    { schema: { tags: ['promotions'], params, response: { 200: promotionPage } } },
    async (req) => {
      const row = await visiblePage(req.params.id, req.ability);
      return toPage(row.pg, row.siteId);
    },
  );

  app.post(
    '/promotionpages',
    {
      schema: {
        tags: ['promotions'],
        body: z.strictObject({ promotionpage: promotionPageInput }),
        response: { 201: promotionPage },
      },
    },
    async (req, reply) => {
      const input = req.body.promotionpage;
      const parent = await visiblePromotion(input.promotion_id, req.ability).catch(() => {
        throw new AppError(422, 'not_found', {}, 'promotion_id');
      });
      assertCan(req.ability, 'create', subject('PromotionPage', { user_id: String(parent.p.userId) }));
      const [row] = await db
        .insert(promotionPages)
        .values({
          promotionId: parent.p.id,
          userId: parent.p.userId,
          title: input.title,
          text: input.text,
          url: input.url,
          status: input.status,
        })
        .returning();
      reply.code(201);
      return toPage(row!, parent.p.siteId);
    },
  );

  app.put(
    '/promotionpages/:id',
    {
      schema: {
        tags: ['promotions'],
        params,
        body: z.strictObject({ promotionpage: promotionPageUpdate }),
        response: { 200: promotionPage },
      },
    },
    async (req) => {
      const row = await visiblePage(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('PromotionPage', { user_id: String(row.pg.userId) }));
      const [updated] = await db
        .update(promotionPages)
        .set(req.body.promotionpage)
        .where(eq(promotionPages.id, row.pg.id))
        .returning();
      return toPage(updated!, row.siteId);
    },
  );

  app.delete('/promotionpages/:id', { schema: { tags: ['promotions'], params } }, async (req, reply) => {
    const row = await visiblePage(req.params.id, req.ability);
    assertCan(req.ability, 'delete', subject('PromotionPage', { user_id: String(row.pg.userId) }));
    await db.delete(promotionPages).where(eq(promotionPages.id, row.pg.id));
    if (row.pg.image) await storage.delete(row.pg.image);
    return reply.code(204).send();
  });

  // SPEC.md section 7: image upload with ?type=promotion
  app.post(
    '/promotionpages/:id/image',
    {
      schema: {
        tags: ['promotions'],
        params,
        querystring: z.object({ type: z.literal('promotion').default('promotion') }),
        consumes: ['multipart/form-data'],
        response: { 200: promotionPage },
      },
    },
    async (req) => {
      const row = await visiblePage(req.params.id, req.ability);
      assertCan(req.ability, 'update', subject('PromotionPage', { user_id: String(row.pg.userId) }));
      const { bytes, type } = await readImageUpload(req, IMAGE_MAX_BYTES);
      const key = `promotions/${row.pg.id}-${randomBytes(8).toString('hex')}.${type.ext}`;
      await storage.put(key, bytes, type.contentType);
      const [updated] = await db
        .update(promotionPages)
        .set({ image: key })
        .where(eq(promotionPages.id, row.pg.id))
        .returning();
      if (row.pg.image) await storage.delete(row.pg.image);
      return toPage(updated!, row.siteId);
    },
  );
};
