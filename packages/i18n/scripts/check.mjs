// Fails when any locale lacks a key (or has an empty value) that the English locale has.
// Also reports keys that only exist outside en, which are dead weight.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const locales = ['en', 'ru', 'uk', 'de', 'fr', 'pt'];

function flatten(obj, prefix = '', out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

export function checkLocales() {
  const problems = [];
  const namespaces = readdirSync(join(root, 'en')).filter((f) => f.endsWith('.json'));
  for (const ns of namespaces) {
    const en = flatten(JSON.parse(readFileSync(join(root, 'en', ns), 'utf8')));
    for (const lng of locales.slice(1)) {
      const file = join(root, lng, ns);
      if (!existsSync(file)) {
        problems.push(`${lng}/${ns}: file missing`);
        continue;
      }
      const other = flatten(JSON.parse(readFileSync(file, 'utf8')));
      for (const key of Object.keys(en)) {
        if (!(key in other)) problems.push(`${lng}/${ns}: missing key ${key}`);
        else if (typeof other[key] === 'string' && other[key].trim() === '')
          problems.push(`${lng}/${ns}: empty ${key}`);
      }
      for (const key of Object.keys(other)) if (!(key in en)) problems.push(`${lng}/${ns}: extra key ${key}`);
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkLocales();
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(`i18n:check: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log('i18n:check: every locale has every key of en');
}
