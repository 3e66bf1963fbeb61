import { z } from 'zod';

/**
 * The maintenance switch (admins): while on, the API answers every other caller's dashboard calls with
 * 503 `{error: 'maintenance'}` and the dashboard shows them the under-maintenance page. Delivery (serve,
 * tracking, the bidder) never stops. `GET /api/system/maintenance` answers anyone, logged in or not.
 */
export const maintenanceState = z.object({
  enabled: z.boolean(),
  /** When it was last switched (null: never). */
  changed_at: z.string().nullable(),
});
export type MaintenanceState = z.infer<typeof maintenanceState>;

/** PUT /api/system/maintenance */
export const maintenanceInput = z.strictObject({
  maintenance: z.strictObject({ enabled: z.boolean() }),
});
export type MaintenanceInput = z.infer<typeof maintenanceInput>;

const checkStatus = z.enum(['ok', 'down']);

/** One scheduled job: its last run (null: not yet), the result it gave, and when it runs next. */
export const systemJob = z.object({
  name: z.string(),
  /** Its period (null: a job this process did not register, only its record is known). */
  every_ms: z.number().int().nullable(),
  /** `shared`: one instance runs it per period; `local`: every instance keeps its own cache fresh. */
  kind: z.enum(['shared', 'local']).nullable(),
  last_run_at: z.string().nullable(),
  /** The result in English ("stored 12, purged 3"; "failed: …" for a failed run). */
  last_result: z.string().nullable(),
  /** A result the dashboard says in its language: a key of `billing:system.job_results` and its values. */
  last_result_code: z.string().nullable().default(null),
  last_result_values: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .nullable()
    .default(null),
  failed: z.boolean(),
  next_run_at: z.string().nullable(),
});
export type SystemJob = z.infer<typeof systemJob>;

/** Events held in memory until the next batch write. */
export const systemBuffer = z.object({
  name: z.enum(['events', 'traffic', 'clicks', 'dsp_stats']),
  queued: z.number().int(),
  /** The last flush that wrote something (null: none since start). */
  last_flush_at: z.string().nullable(),
  last_error: z.string().nullable(),
});
export type SystemBuffer = z.infer<typeof systemBuffer>;

/** GET /api/system (admins and read-only admins): the health of the platform's parts. */
export const systemHealth = z.object({
  checked_at: z.string(),
  database: z.object({
    status: checkStatus,
    driver: z.enum(['pglite', 'postgres']),
    ping_ms: z.number().nullable(),
    error: z.string().nullable(),
  }),
  redis: z.object({
    status: z.enum(['ok', 'down', 'not_configured']),
    ping_ms: z.number().nullable(),
    error: z.string().nullable(),
  }),
  jobs: z.array(systemJob),
  ad_index: z.object({
    campaigns: z.number().int(),
    creatives: z.number().int(),
    widgets: z.number().int(),
    built_at: z.string(),
    /** The last failed rebuild since the last good one (the index keeps serving the previous build). */
    last_error: z.string().nullable(),
  }),
  buffers: z.array(systemBuffer),
  versions: z.object({ app: z.string(), node: z.string(), db: z.string() }),
  maintenance: maintenanceState,
});
export type SystemHealth = z.infer<typeof systemHealth>;
