import type { Locale } from '@adp/contract/constants';
import { localeNames } from '@adp/i18n';
import { Button } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n.ts';

/**
 * The button that shows the current language. Its accessible name starts with the visible code
 * (WCAG 2.5.3, label in name), then says what it is: "EN – Language: English".
 */
export const LocaleButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function LocaleButton(props, ref) {
    const { t, i18n } = useTranslation();
    const active: Locale = currentLocale();
    return (
      <Button
        {...props}
        ref={ref}
        variant="subtle"
        color="gray"
        px="xs"
        leftSection={<IconLanguage size={18} aria-hidden />}
        aria-label={`${active.toUpperCase()} – ${t('locale.label')}: ${localeNames[active]}`}
        data-language={i18n.language}
      >
        {active.toUpperCase()}
      </Button>
    );
  },
);
