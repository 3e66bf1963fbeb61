import { ActionIcon, Affix, Transition } from '@mantine/core';
import { useWindowScroll } from '@mantine/hooks';
import { IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** SPEC.md section 9: the button appears after 250 px of scrolling. */
export const SCROLL_TOP_THRESHOLD = 250;

export function ScrollToTop() {
  const { t } = useTranslation();
  const [scroll, scrollTo] = useWindowScroll();
  return (
    <Affix position={{ bottom: 20, right: 20 }}>
      <Transition transition="slide-up" mounted={scroll.y > SCROLL_TOP_THRESHOLD}>
        {(styles) => (
          <ActionIcon
            style={styles}
            size="xl"
            radius="xl"
            onClick={() => scrollTo({ y: 0 })}
            aria-label={t('scroll_top')}
          >
            <IconArrowUp size={20} aria-hidden />
          </ActionIcon>
        )}
      </Transition>
    </Affix>
  );
}
