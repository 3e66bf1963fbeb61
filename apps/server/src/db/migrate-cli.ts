import { loadConfig } from '../config.ts';
import { openDatabase } from './client.ts';

// Opening the database applies the committed migrations.
const config = loadConfig();
const database = await openDatabase(config);
console.log(`migrations applied (${database.kind})`);
await database.close();
