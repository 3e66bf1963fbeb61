import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const modules = fileURLToPath(new URL('./modules', import.meta.url));

function routesFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return routesFiles(path);
    return entry.name.endsWith('.routes.ts') ? [path] : [];
  });
}

/** What talking to the database looks like from a routes file. */
const databaseAccess = [
  { what: 'imports drizzle-orm', pattern: /from\s+['"]drizzle-orm(\/[^'"]*)?['"]/ },
  { what: 'imports the db schema', pattern: /from\s+['"][^'"]*\/db\/schema(\/[^'"]*)?['"]/ },
  { what: 'imports the db client', pattern: /from\s+['"][^'"]*\/db\/(client|tx)(\.ts)?['"]/ },
  {
    what: 'uses database.db',
    pattern: /\bdatabase\s*\.\s*db\b|\bdatabase\s*\}\s*=\s*ctx|\{\s*db\s*\}\s*=\s*ctx\.database/,
  },
];

test('routes files do HTTP and permissions only: none talks to the database', () => {
  const files = routesFiles(modules);
  expect(files.length).toBeGreaterThan(10);
  const offences = files.flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    return databaseAccess
      .filter((a) => a.pattern.test(source))
      .map((a) => `${relative(modules, file)} ${a.what}`);
  });
  expect(offences).toEqual([]);
});

test('the check notices a routes file that reaches for the database', () => {
  const offending = [
    "import { eq } from 'drizzle-orm';",
    "import { banners } from '../../db/schema/index.ts';",
    'const { db } = ctx.database;',
    'await ctx.database.db.execute(sql`select 1`);',
  ];
  for (const line of offending) expect(databaseAccess.some((a) => a.pattern.test(line))).toBe(true);
});
