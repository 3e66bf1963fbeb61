import { load } from 'cheerio';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { esc, type LandingFormField } from './landing-generator.ts';
import { formOf, landingPath } from './landings.service.ts';

/**
 * Leads one client IP may leave on one landing per window: enough for people (an office or a mobile
 * carrier shares an address), not for a script. Only accepted leads count: a visitor correcting a typo
 * loses nothing.
 */
export const LEADS_PER_IP = 10;
/** Every submission of a client IP, valid or not, on any landing, per window: the bound on a flood. */
export const POSTS_PER_IP = 60;
const LEADS_WINDOW_MS = 10 * 60_000;
const MAX_VALUE_LENGTH = 2000;
const slugPattern = /^[a-z0-9-]{1,80}$/;
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const phonePattern = /^\+?[0-9 ()./-]{5,25}$/;

/**
 * Styles allowed inline, nothing else: no scripts, no outside resources but images (HTTPS, and the images
 * uploaded here), forms post here only.
 */
const pageCsp =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' https: data:; form-action 'self'; base-uri 'none'; frame-ancestors 'self'";

const shellCss = `body{margin:0}.lp-notice{box-sizing:border-box;width:calc(100% - 32px);max-width:560px;margin:48px auto;padding:32px 24px;border-radius:16px;background:#fff;box-shadow:0 10px 30px rgba(31,41,51,.08);font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;text-align:center;color:#1f2933}.lp-notice a{color:#4f46e5}.lp-errors{margin:0 0 8px;padding:12px 16px;border-radius:10px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca;font-family:system-ui,sans-serif}.lp-errors ul{margin:4px 0 0;padding-left:20px}[aria-invalid=true]{border-color:#dc2626!important}`;

function documentOf(lang: string, title: string, body: string): string {
  return `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${shellCss}</style></head><body>${body}</body></html>`;
}

type Values = Record<string, string>;

/** The lead as the landing's form defines it: unknown names dropped, values trimmed and bounded. */
function valuesOf(fields: LandingFormField[], body: unknown): Values {
  const input = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const values: Values = {};
  for (const f of fields) {
    const raw = input[f.name];
    const v = Array.isArray(raw) ? raw.filter((x) => typeof x === 'string').join(', ') : raw;
    if (typeof v === 'string') values[f.name] = v.trim().slice(0, MAX_VALUE_LENGTH);
  }
  return values;
}

function problemsOf(req: FastifyRequest, fields: LandingFormField[], values: Values) {
  const problems: { name: string; message: string }[] = [];
  for (const f of fields) {
    const v = values[f.name] ?? '';
    const field = f.label;
    if (!v) {
      if (f.required) problems.push({ name: f.name, message: req.t('validation:required', { field }) });
      continue;
    }
    // this route reads its form without a schema, so the NUL that PostgreSQL refuses is caught here
    if (v.includes('\u0000')) {
      problems.push({ name: f.name, message: req.t('validation:forbidden_character', { field }) });
      continue;
    }
    if (f.type === 'email' && !emailPattern.test(v))
      problems.push({ name: f.name, message: req.t('validation:email', { field }) });
    if (f.type === 'phone' && !phonePattern.test(v))
      problems.push({ name: f.name, message: req.t('validation:phone', { field }) });
    if (f.type === 'number' && !Number.isFinite(Number(v.replace(',', '.'))))
      problems.push({ name: f.name, message: req.t('validation:number', { field }) });
  }
  return problems;
}

/** The stored page again, with the visitor's answers filled back in and the problems shown in the form. */
function withAnswers(html: string, values: Values, problems: { name: string; message: string }[]): string {
  const $ = load(html, null, false);
  for (const [name, value] of Object.entries(values)) {
    const el = $(`form [name="${name}"]`);
    el.filter('textarea').text(value);
    el.filter('input').not('[type=checkbox],[type=radio],[type=hidden]').attr('value', value);
  }
  for (const p of problems) $(`form [name="${p.name}"]`).attr('aria-invalid', 'true');
  const list = `<div class="lp-errors" role="alert"><ul>${problems.map((p) => `<li>${esc(p.message)}</li>`).join('')}</ul></div>`;
  const form = $('form').first();
  if (form.length) form.prepend(list);
  else $.root().prepend(list);
  return $.html();
}

/**
 * Landing pages as visitors see them, at a stable public address, and their form's submissions (leads).
 * Outside /api: no login, and the page answers HTML.
 */
export async function landingPageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const { store } = ctx;
  const { service } = ctx.landings;
  const published = async (slug: string) => (slugPattern.test(slug) ? service.published(slug) : undefined);

  function send(reply: FastifyReply, status: number, html: string) {
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', pageCsp)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noarchive')
      .send(html);
  }
  const notice = (req: FastifyRequest, title: string, text: string, back?: string) =>
    documentOf(
      req.locale,
      title,
      `<main class="lp-notice"><h1>${esc(title)}</h1><p>${esc(text)}</p>${
        back ? `<p><a href="${esc(back)}">${esc(req.t('landingpage:back'))}</a></p>` : ''
      }</main>`,
    );
  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    send(reply, 404, notice(req, req.t('errors:not_found'), req.t('landingpage:unavailable')));

  app.get('/l/:slug', { schema: { hide: true } }, async (req, reply) => {
    const row = await published((req.params as { slug: string }).slug);
    if (!row) return notFound(req, reply);
    return send(reply, 200, documentOf(req.locale, row.title, row.html));
  });

  app.post('/l/:slug', { schema: { hide: true } }, async (req, reply) => {
    const row = await published((req.params as { slug: string }).slug);
    if (!row) return notFound(req, reply);
    const back = landingPath(row.slug);
    const tooMany = () => send(reply, 429, notice(req, row.title, req.t('errors:too_many_requests'), back));
    if ((await store.hit(`landing-post:${req.ip}`, LEADS_WINDOW_MS)) > POSTS_PER_IP) return tooMany();
    const { fields } = formOf(row);
    const values = valuesOf(fields, req.body);
    const problems = problemsOf(req, fields, values);
    if (problems.length) {
      return send(reply, 422, documentOf(req.locale, row.title, withAnswers(row.html, values, problems)));
    }
    // counted once valid, in one step (submissions at once cannot all pass the limit)
    if ((await store.hit(`landing-lead:${row.id}:${req.ip}`, LEADS_WINDOW_MS)) > LEADS_PER_IP)
      return tooMany();
    await service.addLead(row, values, req.ip);
    return send(
      reply,
      200,
      notice(req, req.t('landingpage:thanks_title'), req.t('landingpage:thanks_text'), back),
    );
  });
}
