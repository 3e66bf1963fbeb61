import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { contextOf } from '../app.ts';
import type { AppContext } from '../context.ts';
import { type BodyFastPath, type FastPath, installFront } from '../delivery/http-front.ts';

/** What a fast path answered before the framework reads of its server (app.ts `serverFactory`). */
export type FastPathState = { closing: boolean; ctx?: AppContext; log?: FastifyBaseLogger };

/**
 * A server with only this fast path over the app's services, in front of node:http as the app's server
 * has it (delivery/http-front.ts): a request the fast path lets go on goes to node:http, which answers 599,
 * so a test sees which requests it takes (and compares its answers with the route's). `viaNode` gives
 * every request to node:http first (the fast path then runs in its request handler, as it does on a
 * connection the front has handed over).
 */
export async function fastPathServer(
  app: FastifyInstance,
  make: (state: FastPathState) => FastPath | BodyFastPath,
  viaNode = false,
) {
  const state: FastPathState = { closing: false, ctx: contextOf(app) };
  const path = make(state) as FastPath & BodyFastPath;
  const server = createServer((req, res) => {
    if (viaNode && path(req, res)) return;
    res.writeHead(599);
    res.end();
  });
  const front = installFront(server, {
    fastPaths: viaNode ? [] : [path],
    bodyPaths: viaNode ? [] : [path],
    closing: () => state.closing,
    headersTimeout: 10_000,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    state,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        front?.stop();
        front?.closeIdle();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * While the server shuts down, the fast path's answers close their keep-alive connection; before the
 * services exist it lets every request go on to Fastify (599 here).
 */
export async function expectShutdownBehaviour(state: FastPathState, request: () => Promise<Response>) {
  state.closing = true;
  try {
    const closing = await request();
    expect(closing.status).toBe(200);
    expect(closing.headers.get('connection')).toBe('close');
  } finally {
    state.closing = false;
  }
  const ctx = state.ctx;
  state.ctx = undefined;
  try {
    expect((await request()).status).toBe(599);
  } finally {
    state.ctx = ctx;
  }
}
