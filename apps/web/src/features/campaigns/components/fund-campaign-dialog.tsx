import type { Campaign } from '@adp/contract';
import { Button, Group, Modal, NumberInput, Stack, Text, Tooltip } from '@mantine/core';
import { IconCoins } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyText } from '../../../components/money-text.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useFundCampaign } from '../api/campaigns-queries.ts';

/**
 * Moves money from the owner's balance to the campaign (or back with a negative sum). SPEC.md: the
 * balance changes only while the campaign is off, so the button explains why it is disabled.
 */
export function FundCampaignButton({
  campaign,
  ownerBalance,
  currency,
}: {
  campaign: Campaign;
  ownerBalance?: number;
  currency: string;
}) {
  const { t } = useTranslation('campaigns');
  const [opened, setOpened] = useState(false);
  const [sum, setSum] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const fund = useFundCampaign(campaign._id);
  const active = campaign.status === 'active';

  const close = () => {
    setOpened(false);
    setSum(undefined);
    setError(null);
  };
  const submit = async () => {
    if (sum === undefined || sum === 0) {
      setError(t('fund.sum_required'));
      return;
    }
    try {
      await fund.mutateAsync(sum);
      notifySuccess(sum > 0 ? t('fund.funded') : t('fund.returned'));
      close();
    } catch (failure) {
      if (failure instanceof ApiError && failure.fieldErrors[0]) setError(failure.fieldErrors[0].detail);
    }
  };

  const button = (
    <Button
      leftSection={<IconCoins size={16} aria-hidden />}
      onClick={() => setOpened(true)}
      disabled={active}
      variant="light"
    >
      {t('fund.open')}
    </Button>
  );
  return (
    <>
      {active ? (
        <Stack gap={4}>
          <Tooltip label={t('fund.disabled_active')}>
            <span>{button}</span>
          </Tooltip>
          <Text fz="xs" c="dimmed">
            {t('fund.disabled_active')}
          </Text>
        </Stack>
      ) : (
        button
      )}
      <Modal
        opened={opened}
        onClose={close}
        title={t('fund.title')}
        centered
        closeButtonProps={{ 'aria-label': t('common:close') }}
      >
        <Stack gap="md">
          <Text fz="sm">{t('fund.explain')}</Text>
          {ownerBalance !== undefined ? (
            <Text fz="sm">
              {t('fund.owner_balance')}: <MoneyText amount={ownerBalance} currency={currency} fw={600} />
            </Text>
          ) : null}
          <Text fz="sm">
            {t('fund.campaign_balance')}: <MoneyText amount={campaign.balance} currency={currency} fw={600} />
          </Text>
          <NumberInput
            label={t('fund.sum')}
            description={t('fund.sum_hint')}
            value={sum ?? ''}
            onChange={(value) => {
              setSum(typeof value === 'number' ? value : undefined);
              setError(null);
            }}
            decimalScale={6}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common:actions.cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={fund.isPending}>
              {t('fund.submit')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
