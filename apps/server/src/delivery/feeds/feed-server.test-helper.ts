import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = (res: ServerResponse, call: SeenCall) => void;

/**
 * A local stand-in for a feed's endpoint: each path prefix answers as a test tells it and records
 * the calls it received, so a test can compare the outgoing HTTP call with the fixture.
 */
export class FeedServer {
  private server: Server | undefined;
  private readonly answers = new Map<string, Answer>();
  readonly calls: SeenCall[] = [];
  private readonly hanging = new Set<ServerResponse>();
  base = '';

  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const call: SeenCall = {
          method: req.method ?? '',
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.calls.push(call);
        const prefix = `/${url.pathname.split('/')[1]}/`;
        const answer = this.answers.get(prefix);
        if (!answer) {
          res.writeHead(404);
          res.end();
          return;
        }
        answer(res, call);
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop() {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  /** Serves `prefix` (`/name/`) and returns its endpoint URL. */
  on(prefix: string, answer: Answer): string {
    this.answers.set(prefix, answer);
    return `${this.base}${prefix}`;
  }

  json(prefix: string, status: number, body: unknown): string {
    return this.on(prefix, (res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  }

  /** An endpoint that accepts the call and never answers. */
  silent(prefix: string): string {
    return this.on(prefix, (res) => {
      this.hanging.add(res);
    });
  }

  lastCall(prefix: string): SeenCall | undefined {
    return this.calls.filter((c) => c.path.startsWith(prefix)).at(-1);
  }
}
