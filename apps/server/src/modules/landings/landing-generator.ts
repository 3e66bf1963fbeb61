import type { Locale } from '@adp/contract';
import { load } from 'cheerio';
import type { FastifyBaseLogger } from 'fastify';
import sanitizeHtml from 'sanitize-html';
import { AppError } from '../../lib/errors.ts';
import { translator } from '../../lib/i18n.ts';

export interface LandingFormField {
  name: string;
  label: string;
  type: 'text' | 'email' | 'phone' | 'number' | 'textarea';
  required: boolean;
}
export interface LandingFormSpec {
  fields: LandingFormField[];
  submit_label: string;
}
export interface LandingGeneratorInput {
  title: string;
  headline: string;
  description: string;
  form: LandingFormSpec;
  locale: Locale;
}

/** Builds the body of a landing page. Its answer is untrusted either way: callers sanitise it. */
export interface LandingGenerator {
  readonly kind: 'llm' | 'template';
  generate(input: LandingGeneratorInput): Promise<string>;
}

export const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const inputTypes: Record<Exclude<LandingFormField['type'], 'textarea'>, string> = {
  text: 'text',
  email: 'email',
  phone: 'tel',
  number: 'number',
};
const autocomplete: Record<string, string> = { email: 'email', phone: 'tel', name: 'name' };

export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function fieldHtml(f: LandingFormField): string {
  const id = `f-${f.name}`;
  const req = f.required ? ' required aria-required="true"' : '';
  const mark = f.required ? ' <span class="req" aria-hidden="true">*</span>' : '';
  const label = `<label for="${id}">${esc(f.label)}${mark}</label>`;
  if (f.type === 'textarea')
    return `<div class="field">${label}<textarea id="${id}" name="${f.name}" rows="4" maxlength="2000"${req}></textarea></div>`;
  const ac = autocomplete[f.type] ?? autocomplete[f.name];
  const extra =
    (ac ? ` autocomplete="${ac}"` : '') +
    (f.type === 'phone' ? ' inputmode="tel"' : '') +
    (f.type === 'number' ? ' inputmode="decimal" step="any"' : '');
  return `<div class="field">${label}<input id="${id}" name="${f.name}" type="${inputTypes[f.type]}" maxlength="500"${extra}${req}></div>`;
}

const templateCss = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2933;background:#f5f7fb;line-height:1.55}
.lp{min-height:100vh}
.lp-hero{background:linear-gradient(135deg,#4f46e5 0%,#7c3aed 55%,#db2777 100%);color:#fff;padding:56px 20px 72px;text-align:center}
.lp-hero h1{margin:0 auto 16px;max-width:760px;font-size:2rem;line-height:1.2;letter-spacing:-.01em}
.lp-hero p{margin:0 auto;max-width:640px;font-size:1.1rem;opacity:.92}
.lp-main{max-width:1040px;margin:-40px auto 0;padding:0 16px 48px;display:grid;gap:24px}
.lp-benefits{background:#fff;border-radius:16px;padding:24px;box-shadow:0 10px 30px rgba(31,41,51,.08)}
.lp-benefits h2,.lp-form h2{margin:0 0 16px;font-size:1.3rem}
.lp-benefits ul{list-style:none;margin:0;padding:0;display:grid;gap:12px}
.lp-benefits li{display:flex;gap:12px;align-items:flex-start}
.lp-benefits li::before{content:"✓";flex:none;width:28px;height:28px;border-radius:50%;background:#ecfdf5;color:#059669;font-weight:700;display:flex;align-items:center;justify-content:center}
.lp-form{background:#fff;border-radius:16px;padding:24px;box-shadow:0 10px 30px rgba(31,41,51,.08)}
.lp-form form{display:grid;gap:14px}
.field{display:grid;gap:6px}
.field label{font-weight:600;font-size:.95rem}
.req{color:#dc2626}
.field input,.field textarea{width:100%;font:inherit;padding:12px 14px;border:1px solid #cbd2d9;border-radius:10px;background:#fff;color:inherit}
.field input:focus,.field textarea:focus{outline:3px solid rgba(79,70,229,.25);border-color:#4f46e5}
.lp-note{margin:0;color:#616e7c;font-size:.85rem}
.lp-form button{font:inherit;font-weight:700;padding:14px 20px;border:0;border-radius:10px;background:#4f46e5;color:#fff;cursor:pointer}
.lp-form button:hover{background:#4338ca}
.lp-footer{text-align:center;color:#9aa5b1;font-size:.8rem;padding:24px}
@media (min-width:760px){
.lp-hero{padding:88px 24px 112px}
.lp-hero h1{font-size:2.75rem}
.lp-main{grid-template-columns:1.2fr 1fr;align-items:start;margin-top:-64px}
.lp-main.single{grid-template-columns:minmax(0,560px);justify-content:center}
}
`;

/** The built-in generator: a responsive page from the landing's own texts, no outside service. */
export function templateGenerator(): LandingGenerator {
  return {
    kind: 'template',
    async generate(input) {
      const t = translator(input.locale);
      const sentences = sentencesOf(input.description);
      const heading = input.headline || input.title;
      const lead = sentences.length > 1 ? sentences[0]! : input.description;
      const benefits = sentences.length > 1 ? sentences.slice(1) : [];
      const anyRequired = input.form.fields.some((f) => f.required);
      const submit = input.form.submit_label || t('landingpage:submit');
      const benefitsHtml = benefits.length
        ? `<section class="lp-benefits"><h2>${esc(t('landingpage:benefits_title'))}</h2><ul>${benefits
            .map((b) => `<li><span>${esc(b)}</span></li>`)
            .join('')}</ul></section>`
        : '';
      return `<style>${templateCss}</style>
<div class="lp">
<header class="lp-hero"><h1>${esc(heading)}</h1>${lead ? `<p>${esc(lead)}</p>` : ''}</header>
<main class="lp-main${benefits.length ? '' : ' single'}">
${benefitsHtml}
<section class="lp-form"><h2>${esc(t('landingpage:form_title'))}</h2>
<form method="post">
${input.form.fields.map(fieldHtml).join('\n')}
${anyRequired ? `<p class="lp-note">${esc(t('landingpage:required_note'))}</p>` : ''}
<button type="submit">${esc(submit)}</button>
</form></section>
</main>
<footer class="lp-footer">${esc(input.title)}</footer>
</div>`;
    },
  };
}

export interface LlmOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  log?: FastifyBaseLogger;
}

const fieldKinds: Record<LandingFormField['type'], string> = {
  text: 'single-line text input (type="text")',
  email: 'e-mail input (type="email")',
  phone: 'telephone input (type="tel")',
  number: 'number input (type="number")',
  textarea: 'multi-line <textarea>',
};

export function llmPrompt(input: LandingGeneratorInput): string {
  const fields = input.form.fields
    .map(
      (f) =>
        `- name="${f.name}", label "${f.label}", ${fieldKinds[f.type]}${f.required ? ', required' : ', optional'}`,
    )
    .join('\n');
  return [
    `Write the HTML <body> content of a responsive, mobile-first landing page in the language "${input.locale}".`,
    `Page title: ${input.title}`,
    `Headline: ${input.headline || input.title}`,
    `Description: ${input.description || '(none)'}`,
    'Include a hero section with the headline and the description, a short benefits section based on the description,',
    'and one <form method="post"> with exactly these fields (no other inputs), each with a visible <label for>:',
    fields,
    `and a submit button labelled "${input.form.submit_label || translator(input.locale)('landingpage:submit')}".`,
    'Put all CSS in one <style> element at the top. Do not use JavaScript, external scripts, fonts, images or links.',
    'Answer with the HTML only: no explanations, no Markdown fences, no <html>, <head> or <body> tags.',
  ].join('\n');
}

/** Models often wrap HTML in Markdown fences or answer a whole document: keep the page body (and its styles). */
export function extractHtml(content: string): string {
  let html = content.trim();
  const fenced = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(html);
  if (fenced?.[1] !== undefined) html = fenced[1].trim();
  const body = /<body[^>]*>([\s\S]*?)(?:<\/body>|$)/i.exec(html);
  if (body?.[1] !== undefined) {
    const head = html.slice(0, body.index);
    const styles = head.match(/<style[^>]*>[\s\S]*?<\/style>/gi) ?? [];
    html = `${styles.join('\n')}${body[1]}`;
  }
  return html.trim();
}

/** An OpenAI-compatible chat completions endpoint (OpenAI, a local Ollama or vLLM, …). */
export function llmGenerator(opts: LlmOptions): LandingGenerator {
  const url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  return {
    kind: 'llm',
    async generate(input) {
      let content: unknown;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.apiKey}` },
          body: JSON.stringify({
            model: opts.model,
            temperature: 0.7,
            messages: [
              {
                role: 'system',
                content:
                  'You are a senior web designer who writes clean, accessible, conversion-focused landing pages in plain HTML and CSS.',
              },
              { role: 'user', content: llmPrompt(input) },
            ],
          }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
        });
        if (!res.ok) throw new Error(`chat completions answered ${res.status}`);
        const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
        content = body.choices?.[0]?.message?.content;
      } catch (err) {
        opts.log?.warn({ err }, 'landing generation failed');
        throw new AppError(502, 'landing_generation_failed');
      }
      if (typeof content !== 'string' || !content.trim()) {
        opts.log?.warn('landing generation answered no content');
        throw new AppError(502, 'landing_generation_failed');
      }
      return extractHtml(content);
    },
  };
}

const inputTypeValues = ['text', 'email', 'tel', 'number', 'hidden', 'url', 'date', 'checkbox', 'radio'];

/**
 * The only HTML a landing page may hold, whoever wrote it (a model, the template or the owner by hand):
 * no scripts, no event handlers, no javascript: URLs, and every form posts to our own lead endpoint.
 * The public page's CSP forbids scripts again, in case anything slipped through.
 */
export function sanitizeLanding(html: string, formAction: string): string {
  return sanitizeHtml(html, {
    allowedTags: [
      ...sanitizeHtml.defaults.allowedTags,
      'img',
      'style',
      'form',
      'input',
      'textarea',
      'select',
      'option',
      'label',
      'button',
      'fieldset',
      'legend',
      'picture',
      'source',
    ],
    // style is "vulnerable" to the library because CSS can load resources; the page's CSP allows none
    allowVulnerableTags: true,
    nonTextTags: ['script', 'noscript', 'title', 'xmp', 'iframe', 'object', 'template'],
    disallowedTagsMode: 'discard',
    allowedAttributes: {
      '*': ['class', 'id', 'style', 'title', 'lang', 'dir', 'role', 'aria-*', 'hidden'],
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading'],
      source: ['srcset', 'sizes', 'media', 'type'],
      form: ['method', 'action', 'novalidate'],
      input: [
        { name: 'type', multiple: false, values: inputTypeValues },
        'name',
        'value',
        'placeholder',
        'required',
        'maxlength',
        'minlength',
        'min',
        'max',
        'step',
        'pattern',
        'autocomplete',
        'inputmode',
        'checked',
      ],
      textarea: ['name', 'rows', 'cols', 'placeholder', 'required', 'maxlength', 'minlength'],
      select: ['name', 'required', 'multiple'],
      option: ['value', 'selected'],
      label: ['for'],
      button: [{ name: 'type', multiple: false, values: ['submit', 'button', 'reset'] }, 'name', 'value'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan', 'scope'],
    },
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'], source: ['http', 'https'] },
    allowProtocolRelative: false,
    transformTags: {
      form: () => ({ tagName: 'form', attribs: { method: 'post', action: formAction } }),
      a: (tagName, attribs) => ({
        tagName,
        attribs: attribs.target ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
      }),
    },
  }).trim();
}

const fallbackFormCss = `
.lp-fallback-form{max-width:560px;margin:32px auto;padding:24px;border-radius:16px;background:#fff;box-shadow:0 10px 30px rgba(31,41,51,.08);font-family:system-ui,sans-serif}
.lp-fallback-form form{display:grid;gap:14px}
.lp-fallback-form .field{display:grid;gap:6px}
.lp-fallback-form label{font-weight:600}
.lp-fallback-form .req{color:#dc2626}
.lp-fallback-form input,.lp-fallback-form textarea{width:100%;box-sizing:border-box;font:inherit;padding:12px 14px;border:1px solid #cbd2d9;border-radius:10px}
.lp-fallback-form button{font:inherit;font-weight:700;padding:14px 20px;border:0;border-radius:10px;background:#4f46e5;color:#fff}
`;

/**
 * A model may forget a field or the form itself; leads need every field, so a page that lacks one gets
 * its forms replaced by the built-in form.
 */
export function ensureFormFields(html: string, input: LandingGeneratorInput): string {
  const $ = load(html, null, false);
  const forms = $('form');
  const complete =
    forms.length > 0 &&
    input.form.fields.every(
      (f) => forms.find(`[name="${f.name}"]`).filter('input,textarea,select').length > 0,
    );
  if (complete) return html;
  forms.remove();
  const t = translator(input.locale);
  const submit = input.form.submit_label || t('landingpage:submit');
  $.root().append(
    `<style>${fallbackFormCss}</style><section class="lp-fallback-form"><h2>${esc(t('landingpage:form_title'))}</h2><form method="post">${input.form.fields
      .map(fieldHtml)
      .join('')}<button type="submit">${esc(submit)}</button></form></section>`,
  );
  return $.html();
}
