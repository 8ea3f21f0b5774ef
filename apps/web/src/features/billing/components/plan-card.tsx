import type { TPlan } from '@herald/shared/plans/plans.schemas';
import { Badge, Box, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber } from '../../../lib/format.ts';
import { localized, planFeatureText } from '../plan-text.ts';

/** One plan on offer: price a month and features, or 'Contact us' (Enterprise). */
export function PlanCard({
  plan,
  current,
  disabled,
  loading,
  balance = null,
  onBuy,
}: {
  plan: TPlan;
  /** The team's plan now. */
  current: boolean;
  disabled: boolean;
  loading: boolean;
  /** The buyer's balance (null: not shown): on a short one the card says what the card pays. */
  balance?: number | null;
  onBuy: (plan: TPlan) => void;
}) {
  const { t, i18n } = useTranslation('billing');
  const name = localized(plan.name, i18n.language);
  return (
    <Card withBorder radius="md" p="lg" h="100%" aria-label={name} component="section">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={4}>{name}</Title>
          {current && (
            <Badge variant="light" color="teal">
              {t('plans.current')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {localized(plan.description, i18n.language)}
        </Text>
        {plan.contact_us || plan.price === null ? (
          <Text fw={700} size="lg">
            {t('plans.contactUs')}
          </Text>
        ) : (
          <Text fw={700} size="xl">
            {formatMoney(plan.price, plan.currency)}
            <Text span size="sm" c="dimmed" fw={400}>
              {' '}
              {t('plans.perMonth')}
            </Text>
          </Text>
        )}
        <Box component="ul" m={0} p={0} style={{ listStyle: 'none', flexGrow: 1 }}>
          {plan.features.map((feature) => (
            <Group component="li" key={feature.slug} justify="space-between" gap="xs" wrap="nowrap" py={2}>
              <Text size="sm">{t(`features.${feature.slug}`)}</Text>
              <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                {planFeatureText(feature.value, formatNumber)}
              </Text>
            </Group>
          ))}
        </Box>
        {!plan.contact_us && plan.price !== null && current && (
          <Text size="xs" c="dimmed">
            {t('plans.currentPlan')}
          </Text>
        )}
        {!plan.contact_us && plan.price !== null && !current && balance !== null && balance < plan.price && (
          <Text size="xs" c="dimmed" data-testid="plan-short-balance">
            {balance > 0
              ? t('plans.shortBalance', {
                  balance: formatMoney(balance, plan.currency),
                  rest: formatMoney(plan.price - balance, plan.currency),
                })
              : t('plans.byCard', { price: formatMoney(plan.price, plan.currency) })}
          </Text>
        )}
        {!plan.contact_us && plan.price !== null && (
          <Button
            fullWidth
            disabled={disabled || current}
            loading={loading}
            onClick={() => onBuy(plan)}
            aria-label={t('plans.buyNamed', { name })}
          >
            {t('plans.buy')}
          </Button>
        )}
      </Stack>
    </Card>
  );
}
