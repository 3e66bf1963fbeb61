import { ActionIcon, Button, Drawer, Group, Radio, Stack } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  type ContentWidth,
  contentWidths,
  defaultLayoutSettings,
  type LayoutType,
  layouts,
  type Skin,
  skins,
  useLayoutSettings,
} from '../layout-settings.tsx';

function Choice<T extends string>({
  label,
  value,
  options,
  optionLabel,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  optionLabel: (option: T) => string;
  onChange: (value: T) => void;
}) {
  return (
    <Radio.Group
      label={label}
      value={value}
      onChange={(next) => {
        const option = options.find((item) => item === next);
        if (option) onChange(option);
      }}
    >
      <Group mt="xs" gap="md">
        {options.map((option) => (
          <Radio key={option} value={option} label={optionLabel(option)} />
        ))}
      </Group>
    </Radio.Group>
  );
}

export function CustomizerButton() {
  const { t } = useTranslation();
  const { customizerOpened, setCustomizerOpened } = useLayoutSettings();
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      onClick={() => setCustomizerOpened(true)}
      aria-label={t('customizer.open')}
      aria-expanded={customizerOpened}
    >
      <IconSettings size={20} aria-hidden />
    </ActionIcon>
  );
}

/** Theme settings drawer; every choice is remembered in localStorage. */
export function Customizer() {
  const { t } = useTranslation();
  const settings = useLayoutSettings();
  return (
    <Drawer
      opened={settings.customizerOpened}
      onClose={() => settings.setCustomizerOpened(false)}
      position="right"
      size="sm"
      title={t('customizer.title')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <Stack gap="lg">
        <Choice<LayoutType>
          label={t('customizer.layout')}
          value={settings.layout}
          options={layouts}
          optionLabel={(option) => t(`customizer.layout_${option}`)}
          onChange={(layout) => settings.update({ layout })}
        />
        <Choice<Skin>
          label={t('customizer.skin')}
          value={settings.skin}
          options={skins}
          optionLabel={(option) => t(`customizer.skin_${option.replace('-', '_')}`)}
          onChange={(skin) => settings.update({ skin })}
        />
        <Choice<ContentWidth>
          label={t('customizer.content_width')}
          value={settings.contentWidth}
          options={contentWidths}
          optionLabel={(option) => t(`customizer.width_${option}`)}
          onChange={(contentWidth) => settings.update({ contentWidth })}
        />
        <Button variant="default" onClick={() => settings.update(defaultLayoutSettings)}>
          {t('customizer.reset')}
        </Button>
      </Stack>
    </Drawer>
  );
}
