import { Button, Code, Collapse, Group, Stack, Text } from '@mantine/core';
import { IconList, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useCampaignIpRanges, useClearCampaignIps } from '../api/campaigns-queries.ts';

/** How many of the list show at once: the list may hold 10,000 ranges. */
const SHOWN = 200;

/** The campaign's IP list: shown on demand, cleared after a confirmation (the campaign then serves anywhere). */
export function CampaignIpList({ campaignId, count }: { campaignId: string; count: number }) {
  const { t } = useTranslation('campaigns');
  const [open, setOpen] = useState(false);
  const [clearing, setClearing] = useState(false);
  const list = useCampaignIpRanges(campaignId, open);
  const clear = useClearCampaignIps(campaignId);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          leftSection={<IconList size={14} aria-hidden />}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? t('import_ips.hide') : t('import_ips.show', { count })}
        </Button>
        <Button
          variant="light"
          color="red"
          size="xs"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => setClearing(true)}
        >
          {t('import_ips.clear')}
        </Button>
      </Group>
      <Collapse expanded={open}>
        {list.data ? (
          <Stack gap={4}>
            <Code block data-testid="campaign-ip-list" style={{ maxHeight: 240, overflow: 'auto' }}>
              {list.data.items.slice(0, SHOWN).join('\n')}
            </Code>
            {list.data.total > SHOWN ? (
              <Text fz="xs" c="dimmed">
                {t('import_ips.more', { count: list.data.total - SHOWN })}
              </Text>
            ) : null}
          </Stack>
        ) : null}
      </Collapse>
      <ConfirmDialog
        opened={clearing}
        title={t('import_ips.clear_title')}
        message={t('import_ips.clear_message')}
        confirmLabel={t('import_ips.clear')}
        loading={clear.isPending}
        onConfirm={() =>
          clear.mutate(undefined, {
            onSuccess: () => {
              setClearing(false);
              setOpen(false);
              notifySuccess(t('import_ips.cleared'));
            },
          })
        }
        onClose={() => setClearing(false)}
      />
    </Stack>
  );
}
