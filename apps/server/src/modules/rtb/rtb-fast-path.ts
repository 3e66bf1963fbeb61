import { gunzip } from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { failureAnswer, writeFastAnswer } from '../../delivery/fast-answer.ts';
import { type BodyRequest, type FastResponse, readBody } from '../../delivery/http-front.ts';
import {
  BODY_LIMIT,
  badLengthAnswer,
  notGzipAnswer,
  type RtbHttpAnswer,
  rtbAnswer,
  tooLargeAnswer,
} from './rtb-answer.ts';

const prefixes = [
  ['/rtb/openrtb2/', false],
  ['/rtb/prebid/', true],
] as const;
/** The content types taken here; any other (exchanges send several) goes on to the route's own parser. */
const jsonType = /^application\/json\s*(;\s*charset="?utf-8"?\s*)?$/i;
const plainKey = /^[A-Za-z0-9_.~-]{1,200}$/;

/**
 * The bid endpoints (`POST /rtb/openrtb2/<key>`, `POST /rtb/prebid/<key>`) answered before the framework
 * sees the request, as the beacons are (delivery/beacon-fast-path.ts): a partner's `tmax` is tens of
 * milliseconds and the decision takes well under one, so routing, hooks and reply objects were most of
 * the work. The body is read here as the route reads it (gzip inflated, at most BODY_LIMIT after
 * inflating, `content-length` checked) and the answer is rtb-answer.ts's, the one the Fastify route in
 * rtb.routes.ts writes too. Only a plain key with a JSON content type is taken; anything else goes on
 * to Fastify, and so does every request until the services exist.
 */
export function rtbFastPath(state: { closing: boolean; ctx?: AppContext; log?: FastifyBaseLogger }) {
  return (req: BodyRequest, res: FastResponse): boolean => {
    const url = req.url;
    const ctx = state.ctx;
    if (!ctx || req.method !== 'POST' || !url || !url.startsWith('/rtb/')) return false;
    const prefix = prefixes.find(([p]) => url.startsWith(p));
    if (!prefix) return false;
    const query = url.indexOf('?');
    const key = url.slice(prefix[0].length, query < 0 ? undefined : query);
    const type = req.headers['content-type'];
    if (!plainKey.test(key) || typeof type !== 'string' || !jsonType.test(type)) return false;
    const startedAt = performance.now();
    const prebid = prefix[1];

    let answered = false;
    const write = (answer: RtbHttpAnswer) => {
      if (answered) return;
      answered = true;
      writeFastAnswer(res, state.closing, answer);
    };
    const declared = Number(req.headers['content-length']);
    if (declared > BODY_LIMIT) {
      write(tooLargeAnswer());
      return true;
    }
    const gzip = String(req.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
    const decide = (body: Buffer) => {
      let answer: RtbHttpAnswer;
      try {
        answer = rtbAnswer(ctx.rtb, prebid, key, req.headers['x-openrtb-version'], body, startedAt);
      } catch (err) {
        const failed = failureAnswer(err);
        if (failed.logged) state.log?.error({ err, method: req.method, url: req.url }, 'delivery failure');
        answer = failed;
      }
      write(answer);
    };
    // the body as it came (gzip: the encoded bytes, inflated once whole): a body that inflates to little
    // or nothing (empty members, empty blocks) is bounded by its own size, the inflated one by the limit
    let received = 0;
    const chunks: Buffer[] = [];
    readBody(req, {
      data(chunk) {
        if (answered) return;
        received += chunk.length;
        if (received > BODY_LIMIT) write(tooLargeAnswer());
        else chunks.push(chunk);
      },
      end() {
        if (answered) return;
        if (!Number.isNaN(declared) && received !== declared) {
          write(badLengthAnswer());
          return;
        }
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
        if (!gzip) {
          decide(body);
          return;
        }
        gunzip(body, { maxOutputLength: BODY_LIMIT }, (err, inflated) => {
          // a body that does not gunzip is the caller's fault
          if (err)
            write(
              (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? tooLargeAnswer() : notGzipAnswer(),
            );
          else decide(inflated);
        });
      },
      // a request cut short gets the route's 400 (its connection is gone: nobody reads it)
      abort: () => write(badLengthAnswer()),
    });
    return true;
  };
}
