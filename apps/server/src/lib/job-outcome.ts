/**
 * A job's result the admin's System page says in its language: `text` in English (logs, API readers),
 * `code` a key of the dashboard's `billing:system.job_results`, `values` what the sentence names.
 */
export interface JobOutcome {
  text: string;
  code: string;
  values: Record<string, string | number>;
}

export const jobOutcome = (code: string, text: string, values: JobOutcome['values'] = {}): JobOutcome => ({
  code,
  text,
  values,
});

export const isOutcome = (v: unknown): v is JobOutcome =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as JobOutcome).code === 'string' &&
  typeof (v as JobOutcome).text === 'string';
