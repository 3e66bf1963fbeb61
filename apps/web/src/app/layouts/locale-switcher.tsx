import { type Locale, locales } from '@adp/contract';
import { localeNames } from '@adp/i18n';
import { Button, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { changeLocale, currentLocale } from '../../lib/i18n.ts';

export function LocaleSwitcher() {
  const { t, i18n } = useTranslation();
  const active: Locale = currentLocale();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          px="xs"
          leftSection={<IconLanguage size={18} aria-hidden />}
          aria-label={`${t('locale.label')}: ${localeNames[active]}`}
          data-language={i18n.language}
        >
          {active.toUpperCase()}
        </Button>
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
