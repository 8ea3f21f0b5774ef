import { Anchor, Text } from '@mantine/core';
import { Trans } from 'react-i18next';
import { Link } from 'react-router';

/** "By registering you accept the Terms of Service and the Privacy Policy." */
export function LegalLinks() {
  return (
    <Text size="xs" c="dimmed" ta="center">
      <Trans
        ns="auth"
        i18nKey="legal"
        components={{
          terms: <Anchor component={Link} to="/terms" size="xs" target="_blank" />,
          privacy: <Anchor component={Link} to="/privacy" size="xs" target="_blank" />,
        }}
      />
    </Text>
  );
}
