import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../lib/notify.ts';

type Decision = { decision: 'approve' } | { decision: 'reject'; reason: string };

/** Admin approve / reject (with a reason) of a campaign or creative. */
export function ModerationButtons({
  onDecide,
  pending,
}: {
  onDecide: (decision: Decision) => Promise<unknown>;
  pending?: boolean;
}) {
  const { t } = useTranslation('campaigns');
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const decide = async (decision: Decision) => {
    await onDecide(decision);
    notifySuccess(decision.decision === 'approve' ? t('moderate.approved') : t('moderate.rejected'));
    setRejecting(false);
    setReason('');
  };
  return (
    <>
      <Group gap="xs">
        <Button
          color="teal"
          variant="light"
          leftSection={<IconCheck size={16} aria-hidden />}
          onClick={() => void decide({ decision: 'approve' }).catch(() => undefined)}
          loading={pending}
        >
          {t('moderate.approve')}
        </Button>
        <Button
          color="red"
          variant="light"
          leftSection={<IconX size={16} aria-hidden />}
          onClick={() => setRejecting(true)}
        >
          {t('moderate.reject')}
        </Button>
      </Group>
      <Modal
        opened={rejecting}
        onClose={() => setRejecting(false)}
        title={t('moderate.reject_title')}
        centered
        closeButtonProps={{ 'aria-label': t('common:close') }}
      >
        <Stack>
          <Textarea
            label={t('moderate.reason')}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            required
            autosize
            minRows={3}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setRejecting(false)}>
              {t('common:actions.cancel')}
            </Button>
            <Button
              color="red"
              disabled={!reason.trim()}
              loading={pending}
              onClick={() =>
                void decide({ decision: 'reject', reason: reason.trim() }).catch(() => undefined)
              }
            >
              {t('moderate.reject')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
