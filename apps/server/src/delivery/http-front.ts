import { type IncomingHttpHeaders, type OutgoingHttpHeader, type Server, STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { failureAnswer } from './fast-answer.ts';

/** A request as the fast paths read it: node:http's IncomingMessage is one, and so is the front's. */
export interface FastRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
  readonly socket: { readonly remoteAddress?: string | undefined };
}

/** An answer as the fast paths write it (head, then body in one call): node:http's ServerResponse is one. */
export interface FastResponse {
  writeHead(status: number, headers: OutgoingHttpHeader[]): unknown;
  end(body?: string, encoding?: BufferEncoding): unknown;
}

/** Answers the request (now or later, through `res`) and says true, or says false and touches nothing. */
export type FastPath = (req: FastRequest, res: FastResponse) => boolean;

/**
 * How a fast path reads a request's body: each part as it arrives (chunked framing taken off), then its
 * end, or `abort` when the connection ends before the body does. Parts that arrive after the path has
 * answered are dropped (the path need not read a body it refused).
 */
export interface BodyReader {
  data(chunk: Buffer): void;
  end(): void;
  abort(): void;
}

/**
 * A request with a body (POST): the front's own (`readBody`, no stream: a stream's machinery per request
 * cost a bid more than reading it) or node:http's IncomingMessage, a stream, on a connection handed over.
 */
export type BodyRequest = FastRequest & ({ readBody(reader: BodyReader): void } | Readable);

/** A fast path for requests with a body (POST), which it reads with `readBody`. */
export type BodyFastPath = (req: BodyRequest, res: FastResponse) => boolean;

/** Reads `req`'s body into `reader`, from the front's request or from node:http's stream. */
export function readBody(req: BodyRequest, reader: BodyReader): void {
  if (!(req instanceof Readable)) {
    req.readBody(reader);
    return;
  }
  req.on('data', (chunk: Buffer) => reader.data(chunk));
  req.on('end', () => reader.end());
  // a body cut short: node:http raises its error only to a reader that listens for it
  req.on('error', () => reader.abort());
}

/**
 * Node's own HTTP/1.1 parser (llhttp, the one node:http runs), without the objects node:http builds around
 * it: `_http_common` is the module node:http takes it from.
 */
interface Parser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenientFlags: number): void;
  consume(handle: unknown): void;
  unconsume(): void;
  execute(data: Buffer): number | Error;
  getCurrentBuffer(): Buffer;
  close(): void;
  [callback: number]: unknown;
}
interface ParserClass {
  new (): Parser;
  REQUEST: number;
  kOnMessageBegin: number;
  kOnHeaders: number;
  kOnHeadersComplete: number;
  kOnBody: number;
  kOnMessageComplete: number;
  kOnExecute: number;
}
const { HTTPParser, methods } = createRequire(import.meta.url)('_http_common') as {
  HTTPParser: ParserClass;
  methods: string[];
};

/** Header fields of which node:http keeps the first when a request repeats them (the rest are joined). */
const firstOnly = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/**
 * The header fields of a request as node:http's `req.headers` gives them: lower-case names, a repeated
 * field joined with `, ` (`cookie` with `; `, `set-cookie` an array), or its first value for the fields
 * that cannot repeat.
 */
export function headersOf(raw: string[]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    const seen = headers[name];
    if (seen === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (name === 'set-cookie') (seen as string[]).push(value);
    else if (name === 'cookie') headers[name] = `${seen}; ${value}`;
    else if (!firstOnly.has(name)) headers[name] = `${seen}, ${value}`;
  }
  return headers as IncomingHttpHeaders;
}

/** The socket's stream handle, as node:http pauses and resumes a consumed one. */
interface Handle {
  reading: boolean;
  readStop(): number;
  readStart(): number;
}

/** What node:http refuses in a header field's value (it would split the head). */
const badValue = /[^\t\x20-\x7e\x80-\xff]/;
/**
 * More answers than this waiting on one connection, or more bytes of answers than this not yet taken by the
 * client, close it: a client that sends requests without reading the answers (one read of the socket can
 * hold a thousand small requests, parsed in one go, before reading stops for the answers to drain).
 */
const MAX_WAITING = 64;
const MAX_UNREAD = 1024 * 1024;
/**
 * Answers made in one turn of the event loop are written at its end (flushSoon), but a client that
 * pipelines many requests in one read gets its ready answers written every this many: the limits above
 * then count bytes written and not taken, as before the answers waited for the turn's end.
 */
const FLUSH_EVERY = 16;

export interface FrontOptions {
  /** Tried in order on each request; a request none takes hands the connection over to node:http. */
  fastPaths: FastPath[];
  /** The same for POST requests. */
  bodyPaths: BodyFastPath[];
  /** Gives node:http a connection (its own connection listener), with the bytes it has not parsed. */
  handover: (socket: Socket) => void;
  /** Whether the server shuts down: answers then close their connection. */
  closing: () => boolean;
  keepAliveTimeout: number;
  headersTimeout: number;
  requestTimeout: number;
}

export interface Front {
  /** The server's `connection` listener. */
  accept(socket: Socket): void;
  /** Closes the connections that wait for a request (a graceful shutdown), as node:http's own. */
  closeIdle(): void;
  /** Stops the timer that reads the clock and looks for connections past their time limits. */
  stop(): void;
}

/**
 * The delivery front: the server's connections start here, on node:http's own parser (llhttp, fed straight
 * from the socket as node:http feeds it), and the requests the fast paths take (the embed script, the
 * widget request, the beacons, the click) are answered without node:http's request and response objects,
 * which cost more than a beacon's whole work; so are the bids (POST), their body read as node:http's. The first request no fast path takes (the API, the
 * dashboard, an upgrade, anything unusual) hands the connection to node:http for good, with that
 * request's bytes, once every answer before it is written. It keeps HTTP/1.1 as node:http does: answers
 * in the order of their requests on a keep-alive connection, `Connection: close` and HTTP/1.0 honoured,
 * HEAD without a body, a `Date` field, 400 (431 for a head too large) for what llhttp refuses in strict
 * mode, and node:http's time limits: the head within `headersTimeout`, the request within
 * `requestTimeout` (both answered 408), an idle keep-alive connection closed after `keepAliveTimeout`.
 */
export function httpFront(options: FrontOptions): Front {
  const { fastPaths, bodyPaths, handover, closing, keepAliveTimeout, headersTimeout, requestTimeout } =
    options;
  const connections = new Set<Connection>();
  const keepAlive = `connection: keep-alive\r\nkeep-alive: timeout=${Math.floor(keepAliveTimeout / 1000)}\r\n`;
  // the clock, read once per tick of the timer below: the Date field and the time limits' checks (when a
  // head began and since when a connection is idle are read exactly: a tick-old clock would cut a client
  // off up to a tick before its limit)
  let now = Date.now();
  let date = `date: ${new Date(now).toUTCString()}\r\n`;
  const timer = setInterval(
    () => {
      now = Date.now();
      date = `date: ${new Date(now).toUTCString()}\r\n`;
      for (const conn of connections) conn.checkTime();
    },
    Math.max(25, Math.min(1_000, Math.floor(headersTimeout / 4))),
  );
  timer.unref();

  /**
   * The connections with answers made in this turn of the event loop: they are written together once the
   * turn's reads are handled (setImmediate runs after libuv's poll phase), so the answers to the requests
   * that arrived together leave in one burst and the client is woken once for them, not once each.
   */
  let dirty: Connection[] = [];
  const flushDirty = () => {
    const list = dirty;
    dirty = [];
    for (const conn of list) {
      conn.dirty = false;
      // gone to node:http or closed since: nothing of it is this front's to write
      if (connections.has(conn)) conn.flush();
    }
  };
  function flushSoon(conn: Connection) {
    if (conn.dirty) return;
    conn.dirty = true;
    if (dirty.push(conn) === 1) setImmediate(flushDirty);
  }

  /** One answer to come, in its request's place on the connection. */
  class Answer implements FastResponse {
    status = 0;
    fields: OutgoingHttpHeader[] = [];
    text: string | undefined;
    latin1 = false;
    done = false;
    constructor(
      readonly conn: Connection,
      readonly head: boolean,
      readonly keepAlive: boolean,
    ) {}
    writeHead(status: number, fields: OutgoingHttpHeader[]) {
      this.status = status;
      this.fields = fields;
    }
    end(body?: string, encoding?: BufferEncoding) {
      if (this.done) return;
      this.text = body;
      this.latin1 = encoding === 'latin1';
      this.done = true;
      flushSoon(this.conn);
    }
  }

  /** The bytes of an answer, head and body; `close` says the connection ends with it. */
  function serialise(answer: Answer): { bytes: string; body?: string; close: boolean } {
    const { status, fields } = answer;
    let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
    let length = false;
    let close = !answer.keepAlive || closing();
    let connection = false;
    for (let i = 0; i < fields.length; i += 2) {
      const name = String(fields[i]);
      const value = fields[i + 1];
      const lower = name.toLowerCase();
      if (lower === 'content-length') length = true;
      else if (lower === 'connection') {
        connection = true;
        if (String(value).toLowerCase() === 'close') close = true;
      }
      for (const one of Array.isArray(value) ? value : [value]) {
        const text = String(one);
        if (badValue.test(text) || badValue.test(name)) throw new Error(`invalid header field ${name}`);
        head += `${name}: ${text}\r\n`;
      }
    }
    head += date;
    if (!connection) head += close ? 'connection: close\r\n' : keepAlive;
    const bodiless = answer.head || status === 204 || status === 304 || status < 200;
    const body = bodiless ? undefined : answer.text;
    if (body === undefined) return { bytes: `${head}\r\n`, close };
    const size = answer.latin1 ? body.length : Buffer.byteLength(body);
    if (!length) head += `content-length: ${size}\r\n`;
    // latin1 text, or UTF-8 text that is all ASCII, goes in one write with the head
    if (size === body.length) return { bytes: `${head}\r\n${body}`, close };
    return { bytes: `${head}\r\n`, body, close };
  }

  /** The delivery tree's 500 (fast-answer.ts) in place of an answer that could not be made. */
  const failure = (answer: Answer) => {
    const { status, headers, body } = failureAnswer();
    answer.status = status;
    answer.fields = headers;
    answer.text = body;
    answer.latin1 = true;
    answer.done = true;
  };

  class Connection {
    readonly parser = new HTTPParser();
    readonly waiting: Answer[] = [];
    /** In the list of connections to write at the end of this turn (flushSoon). */
    dirty = false;
    rawHeaders: string[] = [];
    url = '';
    /** When the request being read began (Date.now()), 0 between requests. */
    began = 0;
    headDone = false;
    idleSince = Date.now();
    /** The client sent its last byte (half close). */
    ended = false;
    /** No more requests are read: the connection closes, or goes to node:http. */
    stopped = false;
    /** The head of the request handed over, and then every byte node:http has to parse. */
    handoverHead: Buffer | undefined;
    handoverBytes: Buffer | undefined;
    consumed = false;
    /** A POST request's body is being read. */
    inBody = false;
    /** Who reads it, and its answer (the rest of the body is dropped once answered). */
    body: BodyReader | undefined;
    bodyAnswer: Answer | undefined;

    constructor(readonly socket: Socket) {}

    /** The body being read is over: complete, or cut short; its reader hears of it unless it has answered. */
    finishBody(how: 'end' | 'abort') {
      const body = this.body;
      this.body = undefined;
      this.inBody = false;
      if (body && !this.bodyAnswer?.done) body[how]();
    }

    start() {
      const { parser, socket } = this;
      // the first head is due within headersTimeout of the connection, as with node:http
      this.began = Date.now();
      parser.initialize(HTTPParser.REQUEST, {}, 0, 0);
      parser[HTTPParser.kOnMessageBegin] = () => {
        this.began = Date.now();
        this.headDone = false;
        this.rawHeaders = [];
        this.url = '';
      };
      parser[HTTPParser.kOnHeaders] = (headers: string[], url: string) => {
        // a head of many fields arrives in parts (node:http gathers them the same way)
        for (const h of headers) this.rawHeaders.push(h);
        this.url += url;
      };
      parser[HTTPParser.kOnHeadersComplete] = this.onHead;
      parser[HTTPParser.kOnBody] = (chunk: Buffer) => {
        if (this.body && !this.bodyAnswer?.done) this.body.data(chunk);
      };
      parser[HTTPParser.kOnMessageComplete] = () => {
        this.began = 0;
        // a chunked body's trailer fields arrive here through kOnHeaders: dropped, as node:http drops them
        // from the next request (they belong to none)
        this.rawHeaders = [];
        this.url = '';
        this.finishBody('end');
      };
      parser[HTTPParser.kOnExecute] = this.onExecute;
      socket.on('end', this.onEnd);
      socket.on('error', this.onError);
      socket.on('close', this.onClose);
      connections.add(this);
      // node:http feeds its parser the same way: llhttp reads the socket's buffers in C++, no 'data' events
      parser.consume((socket as unknown as { _handle: unknown })._handle);
      this.consumed = true;
    }

    onHead = (
      major: number,
      minor: number,
      rawHeaders: string[] | undefined,
      method: number,
      rawUrl: string | undefined,
      _status: unknown,
      _message: unknown,
      upgrade: boolean,
      shouldKeepAlive: boolean,
    ): number => {
      let raw = rawHeaders;
      let url = rawUrl;
      if (raw === undefined) {
        raw = this.rawHeaders;
        this.rawHeaders = [];
      }
      if (url === undefined) {
        url = this.url;
        this.url = '';
      }
      this.headDone = true;
      // after an answer that closes, or a request handed over, nothing more is read (2: stop parsing)
      if (this.stopped) return 2;
      const name = methods[method] ?? '';
      const headers = headersOf(raw);
      // many pipelined requests in one read: the ready answers go out now, so the checks below see them
      if (this.waiting.length >= FLUSH_EVERY && (this.waiting[0] as Answer).done) this.flush();
      // the answers before it still wait for the client to take them: this request (one without a body)
      // waits too, unparsed beyond its head, and reading stops until they are gone (resumeReading)
      if (
        this.socket.writableNeedDrain &&
        headers['content-length'] === undefined &&
        headers['transfer-encoding'] === undefined
      ) {
        this.deferred = [major, minor, raw, method, url, upgrade, shouldKeepAlive];
        return 2;
      }
      if (this.waiting.length >= MAX_WAITING || this.socket.writableLength > MAX_UNREAD) {
        this.socket.destroy();
        return 2;
      }
      if (
        !upgrade &&
        major === 1 &&
        name !== 'CONNECT' &&
        headers.expect === undefined &&
        (minor === 0 || headers.host !== undefined)
      ) {
        const answer = new Answer(this, name === 'HEAD', shouldKeepAlive);
        this.waiting.push(answer);
        try {
          if (name === 'POST') {
            const req: BodyRequest = {
              method: name,
              url,
              headers,
              socket: this.socket,
              readBody: (reader) => {
                // once, while this request's body is being read (a path calls it before it returns): a
                // late call would take over the body of another request of the connection
                if (this.inBody && this.bodyAnswer === answer && !this.body) this.body = reader;
                else reader.abort();
              },
            };
            this.inBody = true;
            this.bodyAnswer = answer;
            for (const path of bodyPaths) if (path(req, answer)) return 0;
            this.inBody = false;
            this.body = undefined;
          } else {
            const req: FastRequest = { method: name, url, headers, socket: this.socket };
            for (const path of fastPaths) if (path(req, answer)) return 0;
          }
        } catch {
          // a fast path that throws before it answers: the delivery tree's 500
          if (!answer.done) {
            failure(answer);
            this.flush();
          }
          return 0;
        }
        this.waiting.pop();
      }
      // node:http takes it from here, this request first: its head as it came (llhttp's fields are its
      // bytes one per character), then what follows in the buffer (onExecute)
      let head = `${name} ${url} HTTP/${major}.${minor}\r\n`;
      for (let i = 0; i < raw.length; i += 2) head += `${raw[i]}: ${raw[i + 1]}\r\n`;
      this.handoverHead = Buffer.from(`${head}\r\n`, 'latin1');
      this.stopped = true;
      // 2 makes llhttp stop right after this head, as for an upgrade, leaving its body unread
      return 2;
    };

    onExecute = (result: number | Error) => {
      if (result instanceof Error) this.onParseError(result);
      else if ((this.handoverHead && !this.handoverBytes) || (this.deferred && !this.unparsed))
        this.afterStop(this.parser.getCurrentBuffer().subarray(result));
    };

    /**
     * llhttp stopped after a head (onHead said 2): `rest` is what follows it in the buffer. A request
     * handed over takes it to node:http; a deferred one keeps it for when the client has read.
     */
    afterStop(rest: Buffer) {
      if (this.handoverHead) {
        this.handoverBytes = Buffer.concat([this.handoverHead, rest]);
        this.unconsume();
        if (this.waiting.length === 0) this.handOver();
      } else {
        this.unparsed = Buffer.from(rest);
        this.pauseReading();
      }
    }

    /** A request read up to its head while the client did not take the answers before it (onHead). */
    deferred: [number, number, string[], number, string, boolean, boolean] | undefined;
    /** The bytes after a deferred request's head, parsed once it is answered. */
    unparsed: Buffer | undefined;

    /** The client took what waited: the deferred request is handled, then the bytes after it are parsed. */
    resumeDeferred() {
      const deferred = this.deferred;
      const rest = this.unparsed ?? Buffer.alloc(0);
      this.deferred = undefined;
      this.unparsed = undefined;
      if (!deferred || this.socket.destroyed) return;
      const [major, minor, raw, method, url, upgrade, keepAlive] = deferred;
      if (this.onHead(major, minor, raw, method, url, 0, '', upgrade, keepAlive) === 2) {
        // deferred again, or handed over: what follows its head goes with it
        this.afterStop(rest);
        return;
      }
      const result = this.parser.execute(rest);
      if (result instanceof Error) this.onParseError(result);
      else if (this.handoverHead || this.deferred) this.afterStop(rest.subarray(result));
    }

    onParseError(err: Error & { code?: string }) {
      if (this.stopped) return;
      this.stopped = true;
      const status =
        err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400;
      // as node:http: a request it cannot read is answered when no answer is still to come before it, and
      // the connection closes (after the answers before it)
      this.lastWords = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\n\r\n`;
      if (this.waiting.length === 0) this.close(this.lastWords);
    }

    /** The answer to a request that could not be read, written after the answers before it (then close). */
    lastWords: string | undefined;

    /** Writes the answers that are ready, in their requests' order. */
    flush() {
      const { waiting, socket } = this;
      // answers to pipelined requests leave in one write
      const several = waiting.length > 1 && (waiting[1] as Answer).done;
      if (several) socket.cork();
      while (waiting.length > 0 && (waiting[0] as Answer).done) {
        const answer = waiting.shift() as Answer;
        let out: ReturnType<typeof serialise>;
        try {
          out = serialise(answer);
        } catch {
          failure(answer);
          out = serialise(answer);
        }
        if (socket.destroyed) continue;
        if (out.body === undefined) socket.write(out.bytes, 'latin1');
        else {
          socket.cork();
          socket.write(out.bytes, 'latin1');
          socket.write(out.body, 'utf8');
          socket.uncork();
        }
        if (out.close) {
          this.stopped = true;
          waiting.length = 0;
          this.unconsume();
          if (several) socket.uncork();
          this.close();
          return;
        }
      }
      if (several) socket.uncork();
      // a client that sends and does not read: its answers wait in memory, so reading stops until they
      // are gone (node:http pauses such a socket the same way)
      if (socket.writableNeedDrain && this.consumed) this.pauseReading();
      if (waiting.length > 0) return;
      this.idleSince = Date.now();
      if (this.handoverBytes) this.handOver();
      else if (this.ended || this.stopped) this.close(this.lastWords);
    }

    /**
     * Ends the connection once what is written has gone out, then closes it (node:http's destroySoon: the
     * server is half-open capable, and a client that keeps its side open must not hold the socket).
     */
    /** close() was called: the connection ends once what is written has gone out. */
    ending = false;
    close(last?: string) {
      const { socket } = this;
      if (socket.destroyed || this.ending) return;
      this.ending = true;
      this.stopped = true;
      socket.once('finish', () => socket.destroy());
      if (last === undefined) socket.end();
      else socket.end(last, 'latin1');
    }

    paused = false;
    /** Stops reading until what is written has drained (then resumeReading). */
    pauseReading() {
      if (this.paused) return;
      this.paused = true;
      const handle = (this.socket as unknown as { _handle?: Handle })._handle;
      if (handle?.reading) {
        handle.reading = false;
        handle.readStop();
      }
      if (this.socket.writableNeedDrain) this.socket.once('drain', this.resumeReading);
      // drained already: go on, outside the parser's callback
      else setImmediate(this.resumeReading);
    }

    resumeReading = () => {
      if (!this.paused) return;
      this.paused = false;
      if (this.deferred) {
        this.resumeDeferred();
        // still waiting (deferred again), or the connection went to node:http or closed
        if (this.paused || !this.consumed) return;
      }
      const handle = (this.socket as unknown as { _handle?: Handle })._handle;
      if (!handle || handle.reading || this.socket.destroyed) return;
      handle.reading = true;
      handle.readStart();
    };

    unconsume() {
      if (!this.consumed) return;
      this.consumed = false;
      this.parser.unconsume();
    }

    handOver() {
      const { socket } = this;
      const bytes = this.handoverBytes;
      // once: a flush that follows the one that handed over finds it done
      if (!bytes || !connections.has(this)) return;
      this.detach();
      // node:http reads the connection from here on
      this.resumeReading();
      if (socket.destroyed || this.ended) {
        socket.destroy();
        return;
      }
      socket.unshift(bytes);
      handover(socket);
    }

    detach() {
      const { socket, parser } = this;
      socket.removeListener('end', this.onEnd);
      socket.removeListener('error', this.onError);
      socket.removeListener('close', this.onClose);
      connections.delete(this);
      this.unconsume();
      // not from within one of its own callbacks
      setImmediate(() => parser.close());
    }

    onEnd = () => {
      this.ended = true;
      // a request cut short can never be answered (its body's reader sees an error, as node:http's)
      if (this.began && (!this.headDone || this.inBody)) this.socket.destroy();
      else if (this.waiting.length === 0 && !this.handoverBytes) this.close();
    };

    onError = () => {
      // the socket closes (onClose); nothing to answer on it
    };

    onClose = () => {
      this.waiting.length = 0;
      // a body cut short: its reader learns it never comes
      this.finishBody('abort');
      this.detach();
    };

    /** Node:http's time limits, checked on each tick of the clock. */
    checkTime() {
      // a connection that ends closes once its last answer is out (as node:http's destroySoon)
      if (this.ending) return;
      if (this.began) {
        const limit = this.headDone ? requestTimeout : headersTimeout;
        if (limit && now - this.began > limit) {
          this.stopped = true;
          if (this.waiting.length === 0)
            this.close('HTTP/1.1 408 Request Timeout\r\nconnection: close\r\n\r\n');
          else this.socket.destroy();
        }
      } else if (this.waiting.length === 0) {
        // an answer still going out (a slow client, a large body) is not idleness
        if (this.socket.writableLength > 0) this.idleSince = now;
        else if (now - this.idleSince > keepAliveTimeout) this.socket.destroy();
      }
    }

    closeIdle() {
      // ended once what is written has gone out (an answer still on its way is not cut off)
      if (!this.began && this.waiting.length === 0 && !this.handoverBytes) this.close();
    }
  }

  return {
    accept(socket) {
      const handle = (socket as unknown as { _handle?: { isStreamBase?: boolean } })._handle;
      if (!handle?.isStreamBase) {
        handover(socket);
        return;
      }
      new Connection(socket).start();
    },
    closeIdle() {
      for (const conn of connections) conn.closeIdle();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * Puts the front before node:http on `server`: node:http's own connection listener is taken off the
 * server and gets each connection the front hands over. Undefined when the server has none to take.
 * @example const front = installFront(server, { fastPaths, bodyPaths, closing, ...config.http });
 */
export function installFront(server: Server, options: Omit<FrontOptions, 'handover'>): Front | undefined {
  const [nodeListener] = server.listeners('connection') as ((socket: Socket) => void)[];
  if (!nodeListener) return undefined;
  server.removeListener('connection', nodeListener);
  const front = httpFront({ ...options, handover: (socket) => nodeListener.call(server, socket) });
  server.on('connection', front.accept);
  return front;
}
