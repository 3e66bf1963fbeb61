import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const modules = fileURLToPath(new URL('./modules', import.meta.url));

function filesEndingWith(dir: string, suffix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesEndingWith(path, suffix);
    return entry.name.endsWith(suffix) ? [path] : [];
  });
}
const routesFiles = (dir: string) => filesEndingWith(dir, '.routes.ts');

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

/**
 * What writing SQL looks like from a service file: a value import of drizzle-orm (query builders, `sql`),
 * of the db schema (tables) or of the db client. `import type` is fine: a service may name row types and
 * take a `Db`/`DbOrTx` handle to pass on to its repository.
 */
const sqlInService = [
  { what: 'imports drizzle-orm', pattern: /import\s+(?!type\b)[^;]*?from\s+['"]drizzle-orm(\/[^'"]*)?['"]/ },
  {
    what: 'imports the db schema',
    pattern: /import\s+(?!type\b)[^;]*?from\s+['"][^'"]*\/db\/schema(\/[^'"]*)?['"]/,
  },
  {
    what: 'imports the db client',
    pattern: /import\s+(?!type\b)[^;]*?from\s+['"][^'"]*\/db\/(client|tx)(\.ts)?['"]/,
  },
];

test("service files hold the rules: their SQL is in the module's repository", () => {
  const files = filesEndingWith(modules, '.service.ts');
  expect(files.length).toBeGreaterThan(10);
  const offences = files.flatMap((file) => {
    const source = readFileSync(file, 'utf8');
    return sqlInService
      .filter((a) => a.pattern.test(source))
      .map((a) => `${relative(modules, file)} ${a.what}`);
  });
  expect(offences).toEqual([]);
});

test('the check notices a service file that writes SQL, and lets type imports pass', () => {
  const offending = [
    "import { and, eq } from 'drizzle-orm';",
    "import { sql } from 'drizzle-orm';",
    "import { type SQL, eq } from 'drizzle-orm';",
    "import {\n  campaigns,\n  banners,\n} from '../../db/schema/index.ts';",
    "import { openPglite } from '../../db/client.ts';",
  ];
  for (const line of offending)
    expect(
      sqlInService.some((a) => a.pattern.test(line)),
      line,
    ).toBe(true);
  const allowed = [
    "import type { Db } from '../../db/client.ts';",
    "import type { DbOrTx } from '../../db/tx.ts';",
    "import type { UserRow } from '../../db/schema/index.ts';",
    "import type { CampaignRow } from './campaigns.repository.ts';",
    "import { AppError } from '../../lib/errors.ts';",
  ];
  for (const line of allowed)
    expect(
      sqlInService.some((a) => a.pattern.test(line)),
      line,
    ).toBe(false);
});
