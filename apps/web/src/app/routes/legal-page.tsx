import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Terms of Service / Privacy Policy: the operator of the installation publishes the text. */
export function LegalPage({ kind }: { kind: 'terms' | 'privacy' }) {
  const { t } = useTranslation('auth');
  return (
    <Stack>
      <Title order={2}>{t(kind === 'terms' ? 'termsTitle' : 'privacyTitle')}</Title>
      <Text size="sm">{t(kind === 'terms' ? 'termsText' : 'privacyText')}</Text>
      <Anchor component={Link} to="/signin" size="sm">
        {t('backToSignin')}
      </Anchor>
    </Stack>
  );
}
