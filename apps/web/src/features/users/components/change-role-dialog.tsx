import { type Role, roles } from '@adp/contract';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../lib/notify.ts';
import { useChangeRole } from '../api/users-queries.ts';

/** Admin: pick one of the seven roles, then confirm the change. */
export function ChangeRoleDialog({
  userId,
  userName,
  current,
  opened,
  onClose,
}: {
  userId: string;
  userName: string;
  current: Role;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('users');
  const [role, setRole] = useState<Role>(current);
  const [confirming, setConfirming] = useState(false);
  const change = useChangeRole(userId);
  const close = () => {
    setConfirming(false);
    setRole(current);
    onClose();
  };
  const apply = async () => {
    try {
      await change.mutateAsync(role);
      notifySuccess(t('role.done', { name: userName, role: t(`roles.${role}`) }));
      close();
    } catch {
      setConfirming(false);
    }
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('role.title')}
      centered
      closeButtonProps={{ 'aria-label': t('common:close') }}
    >
      <Stack gap="sm">
        <Select
          label={t('fields:role')}
          data={roles.map((value) => ({ value, label: t(`roles.${value}`) }))}
          value={role}
          onChange={(value) => {
            if (value) setRole(value as Role);
            setConfirming(false);
          }}
          allowDeselect={false}
          disabled={confirming}
        />
        {confirming ? (
          <Alert color="orange" title={t('role.confirm_title')}>
            <Text fz="sm">
              {t('role.confirm_text', {
                name: userName,
                from: t(`roles.${current}`),
                to: t(`roles.${role}`),
              })}
            </Text>
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('common:actions.cancel')}
          </Button>
          {confirming ? (
            <Button color="orange" onClick={() => void apply()} loading={change.isPending}>
              {t('role.confirm')}
            </Button>
          ) : (
            <Button onClick={() => setConfirming(true)} disabled={role === current}>
              {t('role.submit')}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
