import { randomBytes } from 'node:crypto';
import {
  type Banner,
  banner,
  bannerImageFormats,
  bannerInput,
  bannerUpdate,
  id,
  ipImportResult,
  moderation,
  moderationDecision,
  paged,
  pageQuery,
  targeting,
} from '@adp/contract';
import { type AppAbility, assertCan, subject } from '@adp/permissions';
import multipart from '@fastify/multipart';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { banners, campaigns } from '../../db/schema/index.ts';
import { AppError, FieldsError } from '../../lib/errors.ts';
import { renderBannerImages, sniffVideoType } from '../../lib/images.ts';
import { parseIpCsv } from '../../lib/ip-csv.ts';
import { readScope } from '../../lib/scope.ts';
import { readUploadedFile, readUploadedText } from '../../lib/upload.ts';

const params = z.object({ id });
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const VIDEO_MAX_BYTES = 50 * 1024 * 1024;
type Row = typeof banners.$inferSelect;

/** Creatives of a campaign (SPEC.md sections 2, 3 and 7: payload `banner`, copy, image and video upload). */
export const bannersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { db } = ctx.database;
  const { storage, config } = ctx;
  app.addHook('onRequest', app.authenticate);
  await app.register(multipart, { limits: { fileSize: VIDEO_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

  const url = (key: string) => `${config.publicUrl}/uploads/${key}`;
  const toBanner = (row: Row): Banner => ({
    _id: String(row.id),
    user_id: String(row.userId),
    campaign_id: String(row.campaignId),
    title: row.title,
    text: row.text,
    url: row.url,
    status: row.status as Banner['status'],
    targeting: targeting.parse(row.targeting),
    moderation: row.moderation as Banner['moderation'],
    moderation_reason: row.moderationReason,
    images: row.images
      ? (Object.fromEntries(Object.entries(row.images).map(([k, v]) => [k, url(v)])) as Banner['images'])
      : null,
    video: row.video ? url(row.video) : null,
    created_at: row.createdAt.toISOString(),
  });

  async function visible(bannerId: string, ability: AppAbility) {
    const [row] = await db
      .select()
      .from(banners)
      .where(eq(banners.id, Number(bannerId)));
    if (!row || !ability.can('read', subject('Banner', { user_id: String(row.userId) })))
      throw new AppError(404, 'not_found');
    return row;
  }
  const writable = (
    ability: AppAbility,
    row: { userId: number },
    action: 'update' | 'delete' | 'create' = 'update',
  ) => assertCan(ability, action, subject('Banner', { user_id: String(row.userId) }));

  app.get(
    '/banners',
    {
      schema: {
        tags: ['banners'],
        querystring: pageQuery.extend({ campaign_id: id.optional(), moderation: moderation.optional() }),
        response: { 200: paged(banner) },
      },
    },
    async (req) => {
      assertCan(req.ability, 'read', 'Banner');
      const scope = readScope(req.ability, 'Banner', 'user_id');
      const conds: SQL[] = [];
      if (scope !== 'all') conds.push(inArray(banners.userId, scope.map(Number)));
      if (req.query.campaign_id) conds.push(eq(banners.campaignId, Number(req.query.campaign_id)));
      if (req.query.moderation) conds.push(eq(banners.moderation, req.query.moderation));
      const where = conds.length ? and(...conds) : undefined;
      const [total] = await db.select({ n: count() }).from(banners).where(where);
      const rows = await db
        .select()
        .from(banners)
        .where(where)
        .orderBy(desc(banners.id))
        .limit(req.query.limit)
        .offset((req.query.page - 1) * req.query.limit);
      return {
        items: rows.map(toBanner),
        total: total?.n ?? 0,
        page: req.query.page,
        limit: req.query.limit,
      };
    },
  );

  app.get('/banners/:id', { schema: { tags: ['banners'], params, response: { 200: banner } } }, async (req) =>
    toBanner(await visible(req.params.id, req.ability)),
  );

  app.post(
    '/banners',
    {
      schema: { tags: ['banners'], body: z.strictObject({ banner: bannerInput }), response: { 201: banner } },
    },
    async (req, reply) => {
      const input = req.body.banner;
      const [camp] = await db
        .select()
        .from(campaigns)
        .where(eq(campaigns.id, Number(input.campaign_id)));
      if (!camp || !req.ability.can('read', subject('Campaign', { user_id: String(camp.userId) }))) {
        throw new AppError(422, 'not_found', {}, 'campaign_id');
      }
      writable(req.ability, camp, 'create');
      const approved = req.ability.can('update', 'Moderation');
      const [row] = await db
        .insert(banners)
        .values({
          campaignId: camp.id,
          userId: camp.userId,
          title: input.title,
          text: input.text,
          url: input.url,
          status: input.status,
          targeting: input.targeting as Record<string, unknown>,
          moderation: approved ? 'approved' : 'pending',
        })
        .returning();
      reply.code(201);
      return toBanner(row!);
    },
  );

  app.put(
    '/banners/:id',
    {
      schema: {
        tags: ['banners'],
        params,
        body: z.strictObject({ banner: bannerUpdate }),
        response: { 200: banner },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row);
      const input = req.body.banner;
      // what the visitor sees or where the click goes needs an admin's look again
      const seen = ['title', 'text', 'url'].some(
        (k) => input[k as 'title'] !== undefined && input[k as 'title'] !== row[k as 'title'],
      );
      const [updated] = await db
        .update(banners)
        .set({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.text !== undefined ? { text: input.text } : {}),
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.targeting !== undefined ? { targeting: input.targeting as Record<string, unknown> } : {}),
          ...(seen && !req.ability.can('update', 'Moderation')
            ? { moderation: 'pending', moderationReason: null }
            : {}),
          updatedAt: new Date(),
        })
        .where(eq(banners.id, row.id))
        .returning();
      return toBanner(updated!);
    },
  );

  app.delete('/banners/:id', { schema: { tags: ['banners'], params } }, async (req, reply) => {
    const row = await visible(req.params.id, req.ability);
    writable(req.ability, row, 'delete');
    // image files may be shared with copies of this creative, so they stay in storage
    await db.delete(banners).where(eq(banners.id, row.id));
    return reply.code(204).send();
  });

  app.post(
    '/banners/copy/:id',
    { schema: { tags: ['banners'], params, response: { 201: banner } } },
    async (req, reply) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row, 'create');
      const { id: _id, createdAt: _c, updatedAt: _u, ...rest } = row;
      const approved = req.ability.can('update', 'Moderation');
      const [copy] = await db
        .insert(banners)
        .values({
          ...rest,
          title: `${row.title} (copy)`.slice(0, 60),
          moderation: approved ? row.moderation : 'pending',
          moderationReason: null,
        })
        .returning();
      reply.code(201);
      return toBanner(copy!);
    },
  );

  // SPEC.md section 7: POST /banners/{id}?type=edit|new&kind=image|video (multipart, field `file`)
  app.post(
    '/banners/:id',
    {
      schema: {
        tags: ['banners'],
        params,
        querystring: z.object({
          type: z.enum(['edit', 'new']).default('edit'),
          kind: z.enum(['image', 'video']).default('image'),
        }),
        consumes: ['multipart/form-data'],
        response: { 200: banner },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row);
      const bytes = await readUploadedFile(req);
      const stamp = `${row.id}-${randomBytes(6).toString('hex')}`;
      const moderation = req.ability.can('update', 'Moderation')
        ? {}
        : { moderation: 'pending', moderationReason: null };
      if (req.query.kind === 'video') {
        const type = sniffVideoType(bytes);
        if (!type) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
        const key = `banners/${stamp}.${type.ext}`;
        await storage.put(key, bytes, type.contentType);
        const [updated] = await db
          .update(banners)
          .set({ video: key, ...moderation })
          .where(eq(banners.id, row.id))
          .returning();
        return toBanner(updated!);
      }
      if (bytes.length > IMAGE_MAX_BYTES) throw new FieldsError([{ field: 'file', code: 'invalid_file' }]);
      const rendered = await renderBannerImages(bytes);
      const keys: Record<string, string> = {};
      for (const format of Object.keys(bannerImageFormats) as (keyof typeof bannerImageFormats)[]) {
        const key = `banners/${stamp}-${format}.webp`;
        await storage.put(key, rendered[format], 'image/webp');
        keys[format] = key;
      }
      const [updated] = await db
        .update(banners)
        .set({ images: keys, ...moderation })
        .where(eq(banners.id, row.id))
        .returning();
      return toBanner(updated!);
    },
  );

  app.post(
    '/banners/:id/import-ips',
    {
      schema: {
        tags: ['banners'],
        params,
        consumes: ['multipart/form-data'],
        response: { 200: ipImportResult },
      },
    },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      writable(req.ability, row);
      const { ranges, errors } = parseIpCsv(await readUploadedText(req));
      const t = targeting.parse(row.targeting);
      const all = [...new Set([...t.ips.values, ...ranges])].slice(0, 10_000);
      const next = {
        ...t,
        ips: { state: t.ips.state === 'inactive' ? ('active' as const) : t.ips.state, values: all },
      };
      await db
        .update(banners)
        .set({ targeting: next as Record<string, unknown> })
        .where(eq(banners.id, row.id));
      return { imported: all.length - t.ips.values.length, total: all.length, errors };
    },
  );

  app.post(
    '/banners/:id/moderate',
    { schema: { tags: ['moderation'], params, body: moderationDecision, response: { 200: banner } } },
    async (req) => {
      const row = await visible(req.params.id, req.ability);
      assertCan(req.ability, 'update', 'Moderation');
      const [updated] = await db
        .update(banners)
        .set({
          moderation: req.body.decision === 'approve' ? 'approved' : 'rejected',
          moderationReason: req.body.decision === 'reject' ? req.body.reason : null,
        })
        .where(eq(banners.id, row.id))
        .returning();
      return toBanner(updated!);
    },
  );
};
