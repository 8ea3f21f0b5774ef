import type { TShortUrlDomain } from '@herald/shared/short-links/short-links.schemas';
import { ActionIcon, Alert, Box, Button, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format.ts';

/** One value to copy into a DNS panel or a file: shown whole (it wraps), with a copy button. */
function CopyValue({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('short-links');
  return (
    <Box>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <Code style={{ wordBreak: 'break-all', flex: 1 }}>{value}</Code>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('copied') : t('copy')} withArrow>
              <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label={`${t('copy')}: ${label}`}>
                {copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Box>
  );
}

/**
 * What a domain waiting for verification needs (decision 028): it carries links only once it points
 * at this app; it proves itself there (this app answers the address by itself, or the team's own
 * server serves the text) or by the TXT record, even before it points here; then "Verify now". A
 * domain that stopped proving says since when.
 */
export function DomainVerificationSteps({
  domain,
  verifying,
  onVerify,
}: {
  domain: TShortUrlDomain;
  verifying: boolean;
  onVerify: () => void;
}) {
  const { t } = useTranslation('short-links');
  const v = domain.verification;
  return (
    <Stack gap="sm">
      {v.lost_at && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />} role="status">
          {t('lostSince', { date: formatDateTime(v.lost_at) })}
        </Alert>
      )}
      <Text size="sm">{t('pointHere', { url: domain.url, app: window.location.hostname })}</Text>
      <Text size="sm" fw={500}>
        {t('stepsTitle')}
      </Text>
      <Text size="sm">{t('stepHttp')}</Text>
      <CopyValue label={t('address')} value={v.http_url} />
      <CopyValue label={t('text')} value={v.txt_value} />
      <Text size="sm">{t('stepDns')}</Text>
      <CopyValue label={t('txtName')} value={v.txt_name} />
      <CopyValue label={t('txtValue')} value={v.txt_value} />
      <Text size="sm" c="dimmed">
        {t('stepThen')}
      </Text>
      <Group gap="sm">
        <Button size="sm" leftSection={<IconRefresh size={16} aria-hidden />} loading={verifying} onClick={onVerify}>
          {t('verifyNow')}
        </Button>
        {v.checked_at && (
          <Text size="xs" c="dimmed">
            {t('checkedAt', { date: formatDateTime(v.checked_at) })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
