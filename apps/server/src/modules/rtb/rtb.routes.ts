import { createGunzip } from 'node:zlib';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { deliveryErrorHandler } from '../../delivery/errors.ts';
import { sendFastAnswer } from '../../delivery/fast-answer.ts';
import { BODY_LIMIT, notGzipAnswer, rtbAnswer } from './rtb-answer.ts';

/**
 * The exchange's inbound endpoints, in the delivery tree: `POST /rtb/openrtb2/:key` (OpenRTB 2.5/2.6 JSON,
 * gzip accepted; 200 bid response, 204 no bid, 400 `{error, reason}` for a malformed request, 404 unknown key,
 * 403 inactive partner), the same bidder for Prebid Servers at `POST /rtb/prebid/:key` (the same codes), the win and
 * billing notices `GET /rtb/nurl/:token?price=` and `/rtb/burl/:token?price=` (204 counted, 400 forged or
 * bad price, 409 replayed) and `GET /rtb/click/:token` (302 to the landing page).
 */
export async function rtbRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { rtb } = ctx;
  // any content type (exchanges send JSON under several): the body is parsed here, so a bad one is our 400
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, body, done) => {
    done(null, body);
  });
  app.addHook('preParsing', async (req, _reply, payload) => {
    const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
    if (encoding !== 'gzip') return payload;
    // Fastify compares the bytes received (not the inflated ones) with content-length
    const gunzip = Object.assign(createGunzip(), { receivedEncodedLength: 0 });
    payload.on('data', (chunk: Buffer) => {
      gunzip.receivedEncodedLength += chunk.length;
    });
    // Fastify stops listening once the body is over the limit; an error the inflater raises after that (a
    // corrupt rest of the body) must not reach the process without a listener
    gunzip.on('error', () => {});
    payload.pipe(gunzip);
    return gunzip;
  });

  // a body that does not gunzip is the caller's fault: 400 with the reason, never a 500
  app.setErrorHandler((err, req, reply) => {
    const code = String((err as { code?: unknown }).code ?? '');
    if (code.startsWith('Z_') || code === 'ERR_ZLIB_INITIALIZATION_FAILED')
      return reply.code(400).type('application/json; charset=utf-8').send(notGzipAnswer().body);
    return deliveryErrorHandler(err as FastifyError, req, reply);
  });

  for (const path of ['/rtb/openrtb2/:key', '/rtb/prebid/:key'] as const) {
    const prebid = path === '/rtb/prebid/:key';
    app.post(path, async (req, reply) => {
      const startedAt = performance.now() - reply.elapsedTime;
      const { key } = req.params as { key: string };
      const body = req.body as Buffer | undefined;
      const answer = rtbAnswer(rtb, prebid, key, req.headers['x-openrtb-version'], body, startedAt);
      return sendFastAnswer(reply, answer);
    });
  }

  for (const kind of ['nurl', 'burl'] as const) {
    app.get(`/rtb/${kind}/:token`, async (req, reply) => {
      const { token } = req.params as { token: string };
      const out = await rtb.notice(kind, token, (req.query as { price?: unknown }).price);
      if (out.status === 'counted') return reply.code(204).send();
      const code = out.status === 'replayed' ? 409 : out.status === 'unknown' ? 404 : 400;
      return reply.code(code).send({ error: out.status, reason: out.reason });
    });
  }

  app.get('/rtb/click/:token', async (req, reply) => {
    const target = rtb.clickTarget((req.params as { token: string }).token);
    if (!target) return reply.code(404).send({ error: 'not_found' });
    return reply.code(302).header('location', target).header('cache-control', 'no-store').send();
  });
}
