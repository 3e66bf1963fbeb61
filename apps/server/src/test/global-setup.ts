import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migratedPgliteSnapshot, migrationsFolder } from '../db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated PGlite data directory (see freshDatabase), or '' on PostgreSQL. */
    pgliteSnapshot: string;
  }
}

/**
 * Migrates one PGlite once per run of the server's tests and leaves its data directory in a file named
 * after the migrations, so each test file's database starts from it instead of migrating again.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteSnapshot', '');
    return;
  }
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    if (name.endsWith('.sql') || name.endsWith('.json')) {
      hash.update(name).update(readFileSync(join(migrationsFolder, name)));
    }
  }
  const name = `adp-pglite-${hash.digest('hex').slice(0, 16)}.tar`;
  const file = join(tmpdir(), name);
  if (!existsSync(file)) {
    const blob = await migratedPgliteSnapshot();
    const part = `${file}.${process.pid}`;
    writeFileSync(part, Buffer.from(await blob.arrayBuffer()));
    renameSync(part, file);
    // the snapshots of earlier migrations (about 40 MB each) are not read again, unless another run on
    // this machine (a checkout of an earlier commit) still reads one: only those of hours ago go
    const stale = Date.now() - 3 * 3_600_000;
    for (const old of readdirSync(tmpdir())) {
      const path = join(tmpdir(), old);
      if (/^adp-pglite-[0-9a-f]{16}\.tar$/.test(old) && old !== name && statSync(path).mtimeMs < stale)
        rmSync(path, { force: true });
    }
  }
  project.provide('pgliteSnapshot', file);
}
