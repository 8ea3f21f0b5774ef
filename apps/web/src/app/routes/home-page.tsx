import { Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../features/auth/api/get-current-user.ts';

/** Until audiences land at `/`, a greeting that claims nothing it cannot show. */
export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useCurrentUser();
  return (
    <Stack maw={720}>
      <Card withBorder radius="md" p="xl">
        <Title order={2}>{t('home.welcome', { name: user?.name ?? '' })}</Title>
        <Text c="dimmed" mt="sm">
          {t('home.text')}
        </Text>
      </Card>
    </Stack>
  );
}
