import { Text, type TextProps } from '@mantine/core';
import { formatMoney, formatSignedMoney } from '../lib/format.ts';

/** An amount; `signed` shows + / − and colours income green and spending red. */
export function MoneyText({
  amount,
  currency = 'USD',
  signed,
  ...props
}: { amount: number; currency?: string; signed?: boolean } & TextProps) {
  if (!signed)
    return (
      <Text span {...props}>
        {formatMoney(amount, currency)}
      </Text>
    );
  const color = amount > 0 ? 'teal' : amount < 0 ? 'red' : undefined;
  return (
    <Text span c={color} fw={600} style={{ whiteSpace: 'nowrap' }} {...props}>
      {formatSignedMoney(amount, currency)}
    </Text>
  );
}
