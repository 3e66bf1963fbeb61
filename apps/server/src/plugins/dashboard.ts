import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const escapeAttribute = (text: string) =>
  text.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] as string);

/**
 * The dashboard's page with the address publishers' pages reach this server at (PUBLIC_URL) in a meta
 * field: the embed code the dashboard shows points there, wherever the dashboard itself was opened from.
 */
export function pageWithPublicUrl(html: string, publicUrl: string): string {
  const meta = `<meta name="adp-public-url" content="${escapeAttribute(publicUrl)}" />`;
  const head = html.indexOf('</head>');
  return head >= 0 ? `${html.slice(0, head)}${meta}${html.slice(head)}` : `${meta}${html}`;
}

/**
 * Serves the built dashboard with a history-mode fallback: any GET that is neither an API path nor an
 * existing file answers index.html, so deep links like /users/7 survive a reload. API paths answer JSON 404.
 */
export async function dashboardPlugin(app: FastifyInstance, opts: { root: string; publicUrl: string }) {
  const hasDashboard = existsSync(join(opts.root, 'index.html'));
  // read once: the page is small and changes only with a new build (a restart)
  const page = hasDashboard
    ? pageWithPublicUrl(readFileSync(join(opts.root, 'index.html'), 'utf8'), opts.publicUrl)
    : '';
  if (hasDashboard) {
    await app.register(fastifyStatic, {
      root: opts.root,
      wildcard: false,
      index: false,
      // hashed asset names never change content, so they can be cached for a year
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
    // Browsers and crawlers ask for /favicon.ico on their own; the dashboard's icon is an SVG.
    if (existsSync(join(opts.root, 'favicon.svg'))) {
      app.get('/favicon.ico', { schema: { hide: true } }, (_req, reply) =>
        reply.header('cache-control', 'public, max-age=86400').redirect('/favicon.svg', 301),
      );
    }
  } else {
    app.log.warn({ root: opts.root }, 'dashboard build not found: run `npm run build`');
  }

  const machineTrees = ['/api', '/serve', '/click', '/rtb', '/postback', '/px'];
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const wantsPage = req.method === 'GET' || req.method === 'HEAD';
    // the API's and the machines' trees (ad requests, beacons, clicks, bids, pixels) never get the page
    const isApi = machineTrees.some((tree) => path === tree || path.startsWith(`${tree}/`));
    if (!isApi && wantsPage && hasDashboard && !/\.[a-z0-9]{1,8}$/i.test(path)) {
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').send(page);
    }
    return reply.code(404).send({ error: 'not_found', message: req.t('errors:not_found') });
  });
}
