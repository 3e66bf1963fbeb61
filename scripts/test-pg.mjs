// The server's API tests again on a real PostgreSQL (TEST_DATABASE_URL) and Redis (TEST_REDIS_URL).
// Each test file creates and drops its own database on that server.
import { spawnSync } from 'node:child_process';

if (!process.env.TEST_DATABASE_URL) {
  console.error('test:pg needs TEST_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/postgres');
  process.exit(2);
}
const r = spawnSync('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
