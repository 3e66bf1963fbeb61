import { byteString, type FastAnswer } from '../../delivery/fast-answer.ts';
import { NOT_JSON, type RtbService } from './rtb.service.ts';

/** The largest bid request body we read (after gunzip). */
export const BODY_LIMIT = 256 * 1024;

/**
 * One answer of the bid endpoints, ready to write: status, header fields (name, value, name, value…)
 * and the body, if any. The Fastify route (rtb.routes.ts) and the fast path before the framework
 * (rtb-fast-path.ts) both write what this says, so they cannot disagree.
 */
export type RtbHttpAnswer = FastAnswer;

const json = 'application/json; charset=utf-8';
const errorAnswer = (status: number, error: string, reason?: string): RtbHttpAnswer => ({
  status,
  headers: ['content-type', json],
  body: JSON.stringify(reason === undefined ? { error } : { error, reason }),
});

/** A gzip body that does not inflate: the caller's fault, a 400 with the reason. */
export const notGzipAnswer = () => errorAnswer(400, 'bad_request', 'body is not valid gzip');
/** A body over BODY_LIMIT (declared or read): the delivery tree's 413. */
export const tooLargeAnswer = () => errorAnswer(413, 'payload_too_large');
/** A body shorter or longer than its `content-length`: the delivery tree's 400. */
export const badLengthAnswer = () => errorAnswer(400, 'bad_request');

/**
 * `POST /rtb/openrtb2/:key` (`prebid` false) and `POST /rtb/prebid/:key` (`prebid` true): the raw body
 * (already inflated) to the bidder's decision, and the decision to an HTTP answer. `startedAt` is the
 * `performance.now()` of the request's arrival.
 */
export function rtbAnswer(
  rtb: RtbService,
  prebid: boolean,
  key: string,
  version: string | string[] | undefined,
  raw: Buffer | undefined,
  startedAt: number,
): RtbHttpAnswer {
  let body: unknown;
  try {
    body = JSON.parse(raw?.toString('utf8') ?? '');
  } catch {
    body = NOT_JSON;
  }
  const v = Array.isArray(version) ? version[0] : version;
  const answer = prebid ? rtb.prebidBid(key, v, body, startedAt) : rtb.bid(key, v, body, startedAt);
  const versionHeader = typeof version === 'string' && version ? version : '2.5';
  let out: RtbHttpAnswer;
  if (answer.status === 403 || answer.status === 404) {
    out = errorAnswer(answer.status, answer.status === 404 ? 'not_found' : 'forbidden', answer.reason);
  } else if (answer.status === 400) out = errorAnswer(400, 'bad_request', answer.reason);
  else if (answer.status === 204) out = { status: 204, headers: ['x-nobid-reason', answer.reason] };
  else {
    const bid = answer as Extract<typeof answer, { status: 200 }>;
    // as UTF-8 bytes, one per character: an ASCII answer (the usual bid) is written as it is and its length
    // is its size; text beyond ASCII is encoded here, once, instead of by the write and again to measure it
    out = {
      status: 200,
      headers: ['content-type', json],
      body: byteString(bid.json),
      bytes: true,
    };
  }
  out.headers.push('x-openrtb-version', versionHeader);
  return out;
}
