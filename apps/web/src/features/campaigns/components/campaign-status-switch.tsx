import type { Campaign } from '@adp/contract';
import { Alert, Anchor, Stack, Switch } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { notifyError, notifyErrorMessage } from '../../../lib/notify.ts';
import { useUpdateCampaign } from '../api/campaigns-queries.ts';

/**
 * Switches a campaign on or off. A refused activation is explained where the switch is: not enough
 * balance comes with a link to top up the owner's balance (the campaign page's "Fund campaign" then moves
 * it), an unchecked or failed target CTR with what to do.
 */
export function CampaignStatusSwitch({ campaign, disabled }: { campaign: Campaign; disabled?: boolean }) {
  const { t } = useTranslation('campaigns');
  const update = useUpdateCampaign(campaign._id, true);
  const [refusal, setRefusal] = useState<{ code: string; detail: string } | null>(null);
  const active = campaign.status === 'active';

  const toggle = async (next: boolean) => {
    setRefusal(null);
    try {
      await update.mutateAsync({ status: next ? 'active' : 'inactive' });
    } catch (error) {
      const entry =
        error instanceof ApiError ? error.fieldErrors.find((e) => e.field === 'status') : undefined;
      if (entry) {
        const code = entry.code ?? '';
        const detail = t(`errors:${code}`, { defaultValue: entry.detail });
        setRefusal({ code, detail });
        notifyErrorMessage(detail);
      } else notifyError(error);
    }
  };

  return (
    <Stack gap="xs">
      <Switch
        checked={active}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        disabled={disabled || update.isPending}
        label={active ? t('status_switch.on') : t('status_switch.off')}
        aria-label={t('status_switch.label')}
        size="md"
      />
      {refusal ? (
        <Alert color="red" variant="light" role="alert" title={refusal.detail}>
          {refusal.code === 'not_enough_balance' ? (
            <Stack gap={4}>
              <span>{t('status_switch.fund_first')}</span>
              <Anchor component={Link} to={`/users/${campaign.user_id}/topup`} fw={600}>
                {t('errors:top_up')}
              </Anchor>
            </Stack>
          ) : refusal.code === 'target_ctr_not_checked' ? (
            t('status_switch.check_ctr_first')
          ) : refusal.code === 'target_ctr_not_passed' ? (
            t('status_switch.ctr_failed')
          ) : null}
        </Alert>
      ) : null}
    </Stack>
  );
}
