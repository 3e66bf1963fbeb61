import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import { type Locale, locales } from '@adp/contract/constants';
import { localeNames } from '@adp/i18n';
import { Menu } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../../lib/i18n.ts';
import { LocaleButton } from './locale-button.tsx';

/** The language menu; `defaultOpened` when it was loaded by a click on the light switcher. */
export function LocaleMenu({ defaultOpened = false }: { defaultOpened?: boolean }) {
  const { t } = useTranslation();
  const active: Locale = currentLocale();
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <LocaleButton />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('locale.label')}</Menu.Label>
        {locales.map((lng) => (
          <Menu.Item
            key={lng}
            lang={lng}
            onClick={() => void changeLocale(lng)}
            rightSection={lng === active ? <IconCheck size={14} aria-hidden /> : null}
            aria-current={lng === active ? 'true' : undefined}
          >
            {localeNames[lng]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export default LocaleMenu;
