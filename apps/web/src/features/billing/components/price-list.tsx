import type { TPriceListAnswer } from '@herald/shared/plans/plans.schemas';
import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../lib/format.ts';

/** What an SMS part (by destination country) and a lookup cost, in the balance's currency. */
export function PriceList({ prices }: { prices: TPriceListAnswer }) {
  const { t, i18n } = useTranslation('billing');
  const countryName = new Intl.DisplayNames([i18n.language], { type: 'region' });
  const countries = Object.entries(prices.sms_part.countries).sort(([, a], [, b]) => a - b);
  const money = (minor: number) => formatMoney(minor, prices.currency);
  return (
    <Card withBorder radius="md" p="lg" component="section" aria-label={t('prices.title')}>
      <Stack gap="sm">
        <Title order={4}>{t('prices.title')}</Title>
        <Table verticalSpacing={4} striped aria-label={t('prices.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('prices.service')}</Table.Th>
              <Table.Th ta="right">{t('prices.price')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {countries.map(([code, price]) => (
              <Table.Tr key={code}>
                <Table.Td>{t('prices.smsTo', { country: countryName.of(code) ?? code })}</Table.Td>
                <Table.Td ta="right">{money(price)}</Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Td>{t('prices.smsOther')}</Table.Td>
              <Table.Td ta="right">{money(prices.sms_part.default)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('prices.lookup')}</Table.Td>
              <Table.Td ta="right">{money(prices.lookup)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed">
          {t('prices.note')}
        </Text>
      </Stack>
    </Card>
  );
}
