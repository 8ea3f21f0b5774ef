import { ActionIcon, Badge, Box, Button, Group, Popover, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMessage, IconPlus, IconWallet } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { useBalance, useBalanceEvents } from '../api/get-balance.ts';
import { usePaymentReturn } from '../api/payment-return.ts';
import { freeSmsWords } from '../plan-text.ts';
import { TopUpModal } from './top-up-modal.tsx';

/**
 * The header's free SMS counter (remaining/total) and balance with its top-up button (spec
 * section 2). Live: every `BalanceChanged` of the user lands here in each open tab. On a phone the
 * header has no room for them beside the menu, language and user: they fold behind a wallet button.
 */
export function HeaderBalance({ canTopUp }: { canTopUp: boolean }) {
  const { t } = useTranslation('billing');
  const balance = useBalance();
  const [opened, topUp] = useDisclosure();
  useBalanceEvents();
  usePaymentReturn();
  if (!balance.data) return null;
  const { free_sms: free, balance_currency: currency, debt = 0, test_payments: testPayments } = balance.data;
  const money = formatMoney(balance.data.balance, currency);
  // Both null: the plan's free SMS are unlimited. Said as the profile card says them.
  const freeText = t('header.freeSmsOf', freeSmsWords(free.remaining, free.total, formatNumber));
  const owed = debt > 0 ? t('header.debt', { value: formatMoney(debt, currency) }) : null;
  const debtBadge = owed && (
    <Tooltip label={t('header.debtHint')} multiline w={260}>
      <Badge color="red" variant="filled" role="status" data-testid="header-debt">
        {owed}
      </Badge>
    </Tooltip>
  );
  const testBadge = testPayments && (
    <Tooltip label={t('header.testPayments')}>
      <Badge
        color="yellow"
        variant="light"
        role="note"
        aria-label={t('header.testPayments')}
        data-testid="test-payments"
      >
        {t('header.test')}
      </Badge>
    </Tooltip>
  );

  const freeBadge = (
    <Badge
      variant="light"
      tt="none"
      color={free.remaining === null || free.remaining > 0 ? 'indigo' : 'gray'}
      leftSection={<IconMessage size={12} aria-hidden />}
      role="status"
      aria-label={t('header.freeSmsLabel', { value: freeText })}
    >
      {freeText}
    </Badge>
  );
  const amount = (
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
  );

  return (
    <>
      <Group gap={6} wrap="nowrap" visibleFrom="sm">
        <Tooltip label={t('header.freeSms')}>{freeBadge}</Tooltip>
        {amount}
        {debtBadge}
        {testBadge}
        {canTopUp && (
          <Tooltip label={t('topUp.title')}>
            <ActionIcon variant="light" radius="xl" aria-label={t('topUp.title')} onClick={topUp.open}>
              <IconPlus size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Box hiddenFrom="sm">
        {/* Kept inside a phone's screen: shifted off its edges, and no wider than it. */}
        <Popover position="bottom-end" withArrow shadow="md" middlewares={{ flip: true, shift: { padding: 8 } }}>
          <Popover.Target>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('header.wallet')}>
              <IconWallet size={20} aria-hidden />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown maw="calc(100vw - 16px)">
            <Stack gap="xs">
              <Group justify="space-between" gap="lg">
                <Text size="sm">{t('header.balance')}</Text>
                {amount}
              </Group>
              <Group justify="space-between" gap="lg">
                <Text size="sm">{t('header.freeSms')}</Text>
                {freeBadge}
              </Group>
              {owed && (
                <Text size="sm" c="red.7" fw={600} maw={220}>
                  {owed}. {t('header.debtHint')}
                </Text>
              )}
              {testPayments && (
                <Text size="xs" c="yellow.9" maw={220}>
                  {t('header.testPayments')}
                </Text>
              )}
              {canTopUp && (
                <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={topUp.open}>
                  {t('topUp.title')}
                </Button>
              )}
            </Stack>
          </Popover.Dropdown>
        </Popover>
      </Box>
      {canTopUp && <TopUpModal opened={opened} onClose={topUp.close} currency={currency} testPayments={testPayments} />}
    </>
  );
}
