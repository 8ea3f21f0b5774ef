import type { TActiveSubscription } from '@herald/shared/plans/plans.schemas';
import { Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../../lib/format.ts';
import { freeSmsWords, localized, subscriptionFeatureText } from '../plan-text.ts';

/**
 * The team's subscription in force: its name, when it ends, and each feature as '+', '-' or
 * usage/value (spec section 3). Unsubscribing is not offered yet: the spec's 'Coming soon'.
 */
export function ActiveSubscription({ subscription }: { subscription: TActiveSubscription }) {
  const { t, i18n } = useTranslation('billing');
  const name = localized(subscription.name, i18n.language);
  return (
    <Card withBorder radius="md" p="lg" component="section" aria-label={t('plans.active')}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text size="sm" c="dimmed">
              {t('plans.active')}
            </Text>
            <Title order={4}>{name}</Title>
            <Text size="sm">{t('plans.endsAt', { date: formatDateTime(subscription.ends_at) })}</Text>
          </div>
          <Button
            variant="default"
            onClick={() => notifications.show({ message: t('plans.comingSoon'), color: 'blue' })}
          >
            {t('plans.unsubscribe')}
          </Button>
        </Group>
        <Table verticalSpacing={4} aria-label={t('plans.features')}>
          <Table.Tbody>
            {subscription.features.map((feature) => (
              <Table.Tr key={feature.slug}>
                <Table.Td>{t(`features.${feature.slug}`)}</Table.Td>
                <Table.Td ta="right" fw={600} c={feature.can_use_feature ? undefined : 'orange.7'}>
                  {/* Free SMS said as the header says them: what is left of the total. */}
                  {feature.slug === 'free-sms-limit' && typeof feature.value !== 'boolean'
                    ? t('header.freeSmsOf', freeSmsWords(feature.feature_remaining, feature.value, formatNumber))
                    : subscriptionFeatureText(feature, formatNumber)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
