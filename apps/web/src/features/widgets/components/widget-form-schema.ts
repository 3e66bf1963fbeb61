import { type Widget, type WidgetSettings, widgetInput, widgetSettings } from '@adp/contract';
import { z } from 'zod';

const blankToNull = (schema: z.ZodType) => z.preprocess((value) => (value === '' ? null : value), schema);

const base = { ...widgetInput.omit({ site_id: true, settings: true }).shape, ...widgetSettings.shape };
const shape: Record<string, z.ZodType> = { ...base };
for (const key of ['criteo_type', 'marketplace_url', 'text_max_length'] as const) {
  shape[key] = blankToNull(base[key]);
}

/** The widget form lays the widget's and its settings' fields out flat; the contract validates them. */
export const widgetFormSchema = z.strictObject(shape as typeof base);
export type WidgetFormValues = z.input<typeof widgetFormSchema>;
export type WidgetFormOutput = z.output<typeof widgetFormSchema>;

export const settingsKeys = Object.keys(widgetSettings.shape) as (keyof WidgetSettings)[];
export const widgetFormKeys = Object.keys(base);

export function widgetFormDefaults(widget?: Widget): WidgetFormValues {
  if (widget) {
    const { settings, _id, user_id, site_id, moderation, moderation_reason, created_at, ...rest } = widget;
    return { ...rest, ...settings };
  }
  return {
    title: '',
    status: 'active',
    processor: 'default',
    earn_processor: 'percent',
    earn_value: 50,
    criteo_type: null,
    marketplace_url: null,
    ...widgetSettings.parse({}),
  };
}

/** The settings part of the form, as the preview and the API take it. */
export function settingsOf(values: Partial<WidgetFormValues>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const key of settingsKeys) {
    const value = values[key];
    settings[key] = key === 'text_max_length' && (value === '' || value === undefined) ? null : value;
  }
  return settings;
}

export function toWidgetInput(values: WidgetFormOutput) {
  const settings: Record<string, unknown> = {};
  const widget: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if ((settingsKeys as string[]).includes(key)) settings[key] = value;
    else widget[key] = value;
  }
  return { ...widget, settings: widgetSettings.parse(settings) } as Omit<
    z.output<typeof widgetInput>,
    'site_id'
  >;
}
