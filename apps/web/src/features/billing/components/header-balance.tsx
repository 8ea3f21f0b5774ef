import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMessage, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { useBalance, useBalanceEvents } from '../api/get-balance.ts';
import { TopUpModal } from './top-up-modal.tsx';

/**
 * The header's free SMS counter (remaining/total) and balance with its top-up button (spec
 * section 2). Live: every `BalanceChanged` of the user lands here in each open tab.
 */
export function HeaderBalance({ canTopUp }: { canTopUp: boolean }) {
  const { t } = useTranslation('billing');
  const balance = useBalance();
  const [opened, topUp] = useDisclosure();
  useBalanceEvents();
  if (!balance.data) return null;
  const { free_sms: free, balance_currency: currency } = balance.data;
  const money = formatMoney(balance.data.balance, currency);
  const freeText = `${formatNumber(free.remaining)}/${formatNumber(free.total)}`;

  return (
    <Group gap={6} wrap="nowrap">
      <Tooltip label={t('header.freeSms')}>
        <Badge
          variant="light"
          color={free.remaining > 0 ? 'indigo' : 'gray'}
          leftSection={<IconMessage size={12} aria-hidden />}
          role="status"
          aria-label={t('header.freeSmsLabel', { value: freeText })}
          visibleFrom="xs"
        >
          {freeText}
        </Badge>
      </Tooltip>
      <Text
        component="span"
        size="sm"
        fw={600}
        role="status"
        aria-label={t('header.balanceLabel', { value: money })}
        style={{ whiteSpace: 'nowrap' }}
      >
        {money}
      </Text>
      {canTopUp && (
        <>
          <Tooltip label={t('topUp.title')}>
            <ActionIcon variant="light" radius="xl" aria-label={t('topUp.title')} onClick={topUp.open}>
              <IconPlus size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          <TopUpModal opened={opened} onClose={topUp.close} currency={currency} />
        </>
      )}
    </Group>
  );
}
