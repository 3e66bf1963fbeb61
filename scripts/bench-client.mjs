// A small loopback HTTP/1.1 load client for `npm run bench`: keep-alive sockets, one request in flight on
// each, bounded by a request count and a time limit. Raw sockets rather than node:http or fetch, so the
// client stays cheaper than the servers it measures (they share the machine's cores).
import { connect } from 'node:net';

const CRLF2 = Buffer.from('\r\n\r\n');
const LENGTH_NAMES = [Buffer.from('\r\ncontent-length:'), Buffer.from('\r\nContent-Length:')];

/** The Content-Length of the head that ends at `end` (lower-case or canonical name), or -1. */
function contentLength(buf, end) {
  for (const name of LENGTH_NAMES) {
    const at = buf.indexOf(name);
    if (at < 0 || at > end) continue;
    let i = at + name.length;
    while (buf[i] === 32) i += 1;
    let n = 0;
    let digits = 0;
    for (; buf[i] >= 48 && buf[i] <= 57; i += 1, digits += 1) n = n * 10 + buf[i] - 48;
    return digits ? n : -1;
  }
  return -1;
}

/**
 * Sends `method path` over `connections` keep-alive sockets until `maxRequests` answers arrived or `maxMs`
 * passed. Answers must carry Content-Length (no chunked bodies). Returns throughput and latencies.
 * `paths` (instead of `path`) gives every request its own path, in order, until they run out (single-use
 * tokens); `sent` says how many were used. `onBody` receives each answer's status, head and body.
 * @example await load({ port: 8080, path: '/widget.js', connections: 32, maxRequests: 50000, maxMs: 3000 })
 */
export function load({
  port,
  path,
  paths,
  onBody,
  method = 'GET',
  body,
  headers = {},
  connections = 32,
  maxRequests = 50_000,
  maxMs = 3000,
}) {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const all = body === undefined ? headers : { ...headers, 'content-length': payload.length };
  const fields = `HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${Object.entries(all)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  const head = Buffer.concat([Buffer.from(`${method} ${path} ${fields}`), payload]);
  const limit = paths ? Math.min(maxRequests, paths.length) : maxRequests;
  const latencies = [];
  const statuses = new Map();
  let sent = 0;
  let done = 0;
  let errors = 0;
  const t0 = performance.now();
  const deadline = t0 + maxMs;

  return new Promise((resolve) => {
    let open = connections;
    const finish = () => {
      open -= 1;
      if (open > 0) return;
      const secs = (performance.now() - t0) / 1000;
      latencies.sort((a, b) => a - b);
      const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
      resolve({
        requests: done,
        sent,
        rps: done / secs,
        p50: pct(0.5),
        p99: pct(0.99),
        errors,
        statuses: Object.fromEntries(statuses),
      });
    };

    for (let c = 0; c < connections; c++) {
      const socket = connect({ port, host: '127.0.0.1', noDelay: true });
      let buf = Buffer.alloc(0);
      let started = 0;
      let need = -1; // bytes of the current answer (head + body), once the head is read
      let headEnd = 0;
      let status = 0;
      let closed = false;
      const close = () => {
        if (closed) return;
        closed = true;
        socket.destroy();
        finish();
      };
      const next = () => {
        if (sent >= limit || performance.now() > deadline) return close();
        const at = sent;
        sent += 1;
        started = performance.now();
        socket.write(paths ? `${method} ${paths[at]} ${fields}` : head);
      };
      socket.on('connect', next);
      socket.on('error', () => {
        errors += 1;
        close();
      });
      socket.on('close', close);
      socket.on('data', (chunk) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          if (need < 0) {
            const end = buf.indexOf(CRLF2);
            if (end < 0) return;
            // the status and Content-Length read from the bytes, not a string of the head: the client's
            // cost per answer must stay small next to the servers' (they share the cores)
            status = (buf[9] - 48) * 100 + (buf[10] - 48) * 10 + (buf[11] - 48);
            headEnd = end + 4;
            const length = contentLength(buf, end);
            const bodyless = status === 204 || status === 304;
            if (length < 0 && !bodyless) {
              errors += 1;
              return close();
            }
            need = end + 4 + (bodyless ? 0 : length);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (status >= 400) errors += 1;
          }
          if (buf.length < need) return;
          if (onBody)
            onBody(
              status,
              buf.subarray(0, headEnd).toString('latin1'),
              buf.subarray(headEnd, need).toString(),
            );
          buf = buf.subarray(need);
          need = -1;
          done += 1;
          latencies.push(performance.now() - started);
          next();
        }
      });
    }
  });
}
