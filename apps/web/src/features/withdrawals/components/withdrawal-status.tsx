import type { Withdrawal } from '@adp/contract';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const colors: Record<Withdrawal['status'], string> = { pending: 'yellow', paid: 'teal', rejected: 'red' };

export function WithdrawalStatus({ status }: { status: Withdrawal['status'] }) {
  const { t } = useTranslation('billing');
  return (
    <Badge variant="light" color={colors[status]} miw="max-content">
      {t(`withdrawals.statuses.${status}`)}
    </Badge>
  );
}
