import type { TActiveSubscription, TFeatureSlug } from '@herald/shared/plans/plans.schemas';
import { Button, Progress, Stack, Text } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../../lib/format.ts';
import { freeSmsWords, localized, subscriptionFeatureText, usagePercent } from '../plan-text.ts';

/** The two features the profile card measures (spec section 2). */
const MEASURED: Array<{ slug: TFeatureSlug; label: string }> = [
  { slug: 'import-limit', label: 'usage.imported' },
  { slug: 'free-sms-limit', label: 'usage.freeSms' },
];

/**
 * The profile card's plan: its name, imported contacts and free SMS against the plan's
 * import-limit and free-sms-limit, and Change plan (spec section 2).
 */
export function PlanUsage({ subscriptions, canChange }: { subscriptions: TActiveSubscription[]; canChange: boolean }) {
  const { t, i18n } = useTranslation('billing');
  const subscription = subscriptions[0];
  return (
    <Stack gap={8} w="100%" mt="sm" aria-label={t('usage.label')} role="group">
      <Text size="sm" ta="center">
        {t('usage.plan')}:{' '}
        <Text span fw={600}>
          {subscription ? localized(subscription.name, i18n.language) : t('usage.none')}
        </Text>
      </Text>
      {subscription &&
        MEASURED.map(({ slug, label }) => {
          const feature = subscription.features.find((f) => f.slug === slug);
          if (!feature) return null;
          const percent = usagePercent(feature);
          return (
            <div key={slug}>
              <Text size="xs" c="dimmed" component="div" style={{ display: 'flex', justifyContent: 'space-between' }}>
                <span>{t(label)}</span>
                <span>
                  {slug === 'free-sms-limit' && typeof feature.value !== 'boolean'
                    ? t('header.freeSmsOf', freeSmsWords(feature.feature_remaining, feature.value, formatNumber))
                    : subscriptionFeatureText(feature, formatNumber)}
                </span>
              </Text>
              {percent !== null && (
                <Progress value={percent} size="sm" color={percent >= 90 ? 'orange' : 'indigo'} aria-label={t(label)} />
              )}
            </div>
          );
        })}
      {canChange && (
        <Button
          component={Link}
          to="/profile/subscriptions"
          variant="light"
          size="xs"
          mt={4}
          leftSection={<IconArrowsExchange size={14} aria-hidden />}
        >
          {t('usage.changePlan')}
        </Button>
      )}
    </Stack>
  );
}
