import type { TCampaignStatistic } from '@herald/shared/campaigns/campaign-statistics.schemas';
import { Box, Group, ScrollArea, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format.ts';

const HOUR_MS = 3_600_000;
/** The chart shows at most this many hours, the latest (a longer campaign scrolls within them). */
const MAX_HOURS = 168;
const HEIGHT = 140;

const pad = (n: number) => String(n).padStart(2, '0');
/** The hour in the browser's own zone: `MM-DD HH:00`. */
function hourLabel(at: number) {
  const d = new Date(at);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:00`;
}

/**
 * Deliveries and first human clicks per hour, drawn with plain boxes (no chart library: the web's
 * bundle bar). Hours without either are kept, so gaps show as gaps.
 */
export function StatisticHourlyChart({ hourly }: { hourly: TCampaignStatistic['hourly'] }) {
  const { t } = useTranslation('campaigns');
  if (hourly.length === 0) return <Text c="dimmed">{t('statistics.noHours')}</Text>;
  const byHour = new Map(hourly.map((h) => [new Date(h.hour).getTime(), h]));
  const last = Math.max(...byHour.keys());
  const first = Math.max(Math.min(...byHour.keys()), last - (MAX_HOURS - 1) * HOUR_MS);
  const hours: Array<{ at: number; delivered: number; clicked: number }> = [];
  for (let at = first; at <= last; at += HOUR_MS) {
    const h = byHour.get(at);
    hours.push({ at, delivered: h?.delivered ?? 0, clicked: h?.clicked ?? 0 });
  }
  const top = Math.max(1, ...hours.map((h) => Math.max(h.delivered, h.clicked)));
  const bar = (value: number) => Math.max(value > 0 ? 2 : 0, Math.round((HEIGHT * value) / top));
  return (
    <Stack gap="xs">
      <Group gap="md">
        <Group gap={6}>
          <Box w={12} h={12} bg="teal.6" style={{ borderRadius: 2 }} />
          <Text size="sm">{t('statistics.delivered')}</Text>
        </Group>
        <Group gap={6}>
          <Box w={12} h={12} bg="violet.6" style={{ borderRadius: 2 }} />
          <Text size="sm">{t('statistics.clicked')}</Text>
        </Group>
      </Group>
      <ScrollArea type="auto" offsetScrollbars>
        <Group gap={4} align="flex-end" wrap="nowrap" h={HEIGHT + 24} role="img" aria-label={t('statistics.hourly')}>
          {hours.map((h) => (
            <Tooltip
              key={h.at}
              label={t('statistics.hourTip', {
                hour: hourLabel(h.at),
                delivered: formatNumber(h.delivered),
                clicked: formatNumber(h.clicked),
              })}
            >
              <Stack gap={2} align="center" style={{ flex: '0 0 auto' }}>
                <Group gap={1} align="flex-end" wrap="nowrap" h={HEIGHT}>
                  <Box w={10} h={bar(h.delivered)} bg="teal.6" />
                  <Box w={10} h={bar(h.clicked)} bg="violet.6" />
                </Group>
                <Text size="10px" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {pad(new Date(h.at).getHours())}
                </Text>
              </Stack>
            </Tooltip>
          ))}
        </Group>
      </ScrollArea>
      <Text size="xs" c="dimmed">
        {t('statistics.hourlyHint', { from: hourLabel(first), to: hourLabel(last) })}
      </Text>
    </Stack>
  );
}
