import { Alert, Anchor, Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { Logo } from '../../../components/logo.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useLogout } from '../api/logout.ts';
import { useResendVerification } from '../api/resend-verification.ts';

/** Shown on every protected route while the account is not activated or a 403 was answered. */
export function AccessDenied() {
  const { t } = useTranslation('auth');
  const resend = useResendVerification();
  const logout = useLogout();
  const [sent, setSent] = useState(false);

  const onResend = () =>
    resend.mutate(
      {},
      {
        onSuccess: () => {
          setSent(true);
          notifySuccess(t('successResend'));
        },
      },
    );

  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" radius="md" p="xl" maw={480} w="100%">
        <Stack>
          <Group justify="space-between">
            <Logo />
            <LanguageSelect />
          </Group>
          <Title order={2}>{t('notActivated')}</Title>
          <Text c="dimmed">{t('notActivatedText')}</Text>
          {sent && (
            <Alert color="teal" role="status">
              {t('successResend')}
            </Alert>
          )}
          <Group justify="space-between">
            <Anchor component="button" type="button" onClick={onResend} disabled={resend.isPending} fz="sm">
              <Group gap={6} component="span">
                <IconMailForward size={16} aria-hidden />
                {t('resendActivation')}
              </Group>
            </Anchor>
            <Button variant="default" size="xs" onClick={() => logout.mutate()} loading={logout.isPending}>
              {t('common:logout')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
