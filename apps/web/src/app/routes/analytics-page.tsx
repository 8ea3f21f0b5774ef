import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Spec: the analytics screen is a placeholder that says it is coming soon. */
export function AnalyticsPage() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" p="xl" maw={720}>
      <Stack align="center" gap="sm" py="xl">
        <ThemeIcon size={56} radius="xl" variant="light" aria-hidden>
          <IconChartBar size={30} />
        </ThemeIcon>
        <Title order={2}>{t('analytics.title')}</Title>
        <Text c="dimmed">{t('analytics.comingSoon')}</Text>
      </Stack>
    </Card>
  );
}
