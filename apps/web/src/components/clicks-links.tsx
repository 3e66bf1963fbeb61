import { Button, Group, Menu } from '@mantine/core';
import { IconChevronDown, IconClick } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const screens = {
  campaign: ['clicks', 'impressions', 'geoclicks', 'pixelclicks', 'postback'],
  site: ['clicks', 'click-sources', 'geoclicks', 'impression-rate', 'toparticles'],
  widget: ['clicks'],
} as const;

/**
 * The way from a campaign, site or widget page to its click screens (features/clicks): one menu button.
 * `base` is the entity page's path (`/users/7/campaigns/5`, `/sites/3`, `/widgets/9`). `advanced` false:
 * the site's click lists are not the caller's (a site's advanced statistics, set by an admin), so a
 * site's menu leaves them out and a widget has none.
 */
export function ClicksLinks({
  kind,
  base,
  advanced = true,
}: {
  kind: keyof typeof screens;
  base: string;
  advanced?: boolean;
}) {
  const { t } = useTranslation('clicks');
  if (kind === 'widget' && !advanced) return null;
  if (kind === 'widget')
    return (
      <Group justify="flex-end">
        <Button
          component={Link}
          to={`${base}/clicks`}
          variant="default"
          leftSection={<IconClick size={16} aria-hidden />}
        >
          {t('title.widget_clicks')}
        </Button>
      </Group>
    );
  return (
    <Group justify="flex-end">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconClick size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
          >
            {t('nav.open')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {screens[kind]
            .filter((s) => advanced || s !== 'clicks')
            .map((s) => (
              <Menu.Item key={s} component={Link} to={`${base}/${s}`}>
                {t(`title.${s.replace('-', '_')}`)}
              </Menu.Item>
            ))}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
