import { type WidgetSettings, widgetSettings } from '@adp/contract';
import { Alert, Card, Group, Loader, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWidgetPreview, useWidgetPreviewFrame } from '../api/widgets-queries.ts';
import { type AdpWidgetHandle, loadEmbedScript } from './embed-script.ts';

/** The last settings the contract accepts: a half-typed field keeps the previous drawing. */
function useValidSettings(raw: Record<string, unknown>): WidgetSettings | null {
  const json = JSON.stringify(raw);
  const [debounced] = useDebouncedValue(json, 300);
  const last = useRef<WidgetSettings | null>(null);
  return useMemo(() => {
    const parsed = widgetSettings.safeParse(JSON.parse(debounced));
    if (parsed.success) last.current = parsed.data;
    return last.current;
  }, [debounced]);
}

function LivePreview({ settings, siteId }: { settings: WidgetSettings | null; siteId?: string }) {
  const { t } = useTranslation('widgets');
  const preview = useWidgetPreview(settings, siteId);
  const host = useRef<HTMLElement>(null);
  const handle = useRef<AdpWidgetHandle | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const data = preview.data;
    if (!data || !host.current) return;
    let cancelled = false;
    loadEmbedScript().then(
      (api) => {
        if (cancelled || !host.current) return;
        if (handle.current) handle.current.update(data.settings, data.items);
        else handle.current = api.render(host.current, data.settings, data.items, { storage: null });
        host.current.dataset.renderedType = data.settings.type;
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
    };
  }, [preview.data]);

  useEffect(
    () => () => {
      handle.current?.destroy();
      handle.current = null;
    },
    [],
  );

  return (
    <Stack gap="xs">
      {failed ? (
        <Alert color="red" role="alert">
          {t('preview.script_failed')}
        </Alert>
      ) : null}
      {/* transform makes the container the frame of fixed-position widgets and the interstitial */}
      <section
        ref={host}
        data-testid="widget-preview-host"
        aria-label={t('preview.live')}
        style={{
          transform: 'translateZ(0)',
          minHeight: 240,
          overflow: 'auto',
          borderRadius: 8,
          border: '1px dashed var(--mantine-color-default-border)',
          background: '#fff',
          padding: 8,
        }}
      />
    </Stack>
  );
}

function FramePreview({
  settings,
  siteId,
  title,
}: {
  settings: WidgetSettings | null;
  siteId?: string;
  title?: string;
}) {
  const { t } = useTranslation('widgets');
  const frame = useWidgetPreviewFrame(settings, siteId, title, true);
  if (!frame.data) return <Loader size="sm" aria-label={t('common:loading')} />;
  return (
    <iframe
      title={t('preview.frame')}
      srcDoc={frame.data}
      sandbox="allow-scripts"
      data-testid="widget-preview-frame"
      style={{
        width: '100%',
        height: 480,
        border: '1px solid var(--mantine-color-default-border)',
        borderRadius: 8,
        background: '#fff',
      }}
    />
  );
}

/** Renders the unsaved settings with the real embed script, again whenever a setting changes. */
export function WidgetPreview({
  settings: raw,
  siteId,
  title,
  saved = false,
}: {
  settings: Record<string, unknown>;
  siteId?: string;
  title?: string;
  /** The saved settings of a widget page rather than a form's unsaved ones. */
  saved?: boolean;
}) {
  const { t } = useTranslation('widgets');
  const settings = useValidSettings(raw);
  const [mode, setMode] = useState<'live' | 'frame'>('live');
  return (
    <Card padding="md" radius="md" component="section" aria-label={t('preview.title')}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={2} fz="lg">
            {t('preview.title')}
          </Title>
          <SegmentedControl
            size="xs"
            value={mode}
            onChange={(value) => setMode(value as 'live' | 'frame')}
            data={[
              { value: 'live', label: t('preview.mode_live') },
              { value: 'frame', label: t('preview.mode_frame') },
            ]}
            aria-label={t('preview.mode')}
          />
        </Group>
        <Text fz="xs" c="dimmed">
          {t(saved ? 'preview.hint_saved' : 'preview.hint')}
        </Text>
        {mode === 'live' ? (
          <LivePreview settings={settings} siteId={siteId} />
        ) : (
          <FramePreview settings={settings} siteId={siteId} title={title} />
        )}
      </Stack>
    </Card>
  );
}
