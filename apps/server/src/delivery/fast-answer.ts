import type { ServerResponse } from 'node:http';

/** An answer written before the framework: status, header fields (name, value, name, value…), body. */
export interface FastAnswer {
  status: number;
  headers: string[];
  body?: string | undefined;
}

const failure = '{"error":"generic"}';

/**
 * Writes a fast path's answer in one go (head and body, with its length); while the server shuts down the
 * keep-alive connection is closed, as the framework's answers are then.
 */
export function writeFastAnswer(res: ServerResponse, closing: boolean, answer: FastAnswer) {
  const headers = answer.headers;
  if (answer.body !== undefined) headers.push('content-length', String(Buffer.byteLength(answer.body)));
  if (closing) headers.push('connection', 'close');
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/** The 500 of a fast path whose decision threw (the delivery tree's error answer). */
export const failureAnswer = (): FastAnswer => ({
  status: 500,
  headers: ['content-type', 'application/json; charset=utf-8'],
  body: failure,
});
