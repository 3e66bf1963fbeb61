import { Alert, Stack, Tabs, Text } from '@mantine/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { StatsHiddenNotice, statsAccessCode } from '../../../components/site-stats-access.tsx';
import { formatDateTime } from '../../../lib/format.ts';

export interface ClicksTab {
  /** The last part of the screen's path (`clicks`, `geoclicks`, …), the key of its title. */
  path: string;
  label: string;
}

/**
 * The frame of every click screen: the title (the screen) and subtitle (the campaign, site or widget), a
 * back link to it, the tabs that go to its other click screens (links: each keeps the range in the URL),
 * the range bar and the screen's content.
 */
export function ClicksLayout({
  title,
  subtitle,
  back,
  base,
  tabs,
  current,
  bar,
  error,
  availableAt,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  back: { to: string; label: string };
  base: string;
  tabs: ClicksTab[];
  current: string;
  bar: ReactNode;
  /** The list's failure (or just that it failed): a refusal of the site's statistics access says why. */
  error?: unknown;
  /** The 24-hour rule: statistics appear at this instant (the list answered `available_at`). */
  availableAt?: string | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation('clicks');
  const navigate = useNavigate();
  const { search } = useLocation();
  // the range travels between tabs; a page number or a screen's own filter does not
  const range = new URLSearchParams(
    [...new URLSearchParams(search)].filter(([k]) => k === 'from' || k === 'to' || k === 'period'),
  ).toString();
  // on a phone the row of tabs scrolls sideways: the open one is brought into view, not left off screen
  const tabsRef = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the DOM is read again whenever the open tab changes
  useEffect(() => {
    const list = tabsRef.current;
    const tab = list?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list || !tab) return;
    const box = list.getBoundingClientRect();
    const at = tab.getBoundingClientRect();
    if (at.left < box.left || at.right > box.right)
      list.scrollLeft += at.left - box.left - (box.width - at.width) / 2;
  }, [current]);
  return (
    <Stack gap="md">
      <PageHeader title={title} subtitle={subtitle} back={back} />
      {tabs.length > 1 ? (
        <Tabs
          value={current}
          onChange={(value) => value && navigate(`${base}/${value}${range ? `?${range}` : ''}`)}
          keepMounted={false}
        >
          <Tabs.List
            ref={tabsRef}
            style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}
            aria-label={t('nav.label')}
          >
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.path} value={tab.path} style={{ whiteSpace: 'nowrap' }}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
      ) : null}
      {bar}
      {statsAccessCode(error) ? (
        <StatsHiddenNotice code={statsAccessCode(error) ?? undefined} />
      ) : error ? (
        <Alert color="red" variant="light" role="alert">
          <Text fz="sm">{t('errors:generic')}</Text>
        </Alert>
      ) : availableAt ? (
        <Alert color="blue" variant="light" title={t('stats:delay.title')}>
          <Text fz="sm">{t('stats:delay.message', { time: formatDateTime(availableAt) })}</Text>
        </Alert>
      ) : (
        children
      )}
    </Stack>
  );
}
