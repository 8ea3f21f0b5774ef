import { Paper, SimpleGrid, Skeleton, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { formatNumber } from '../../../lib/format.ts';

interface Item {
  label: string;
  value: number | undefined;
  /** Where a click on the card goes (spec: Total leads and Segments are clickable). */
  to?: string;
  active?: boolean;
}

/** The counts in an audience's header; each card can open its table. */
export function SegmentStats({ items, loading }: { items: Item[]; loading?: boolean }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: Math.max(items.length, 2) }} spacing="sm" maw={520}>
      {items.map((item) => {
        const body = (
          <Paper
            key={item.label}
            withBorder
            radius="md"
            px="md"
            py="sm"
            style={item.active ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
          >
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {item.label}
            </Text>
            {loading || item.value === undefined ? (
              <Skeleton height={26} mt={4} width={60} />
            ) : (
              <Text fw={700} fz={22} mt={2} c={item.to ? 'var(--mantine-primary-color-filled)' : undefined}>
                {formatNumber(item.value)}
              </Text>
            )}
          </Paper>
        );
        return item.to ? (
          <UnstyledButton
            key={item.label}
            component={Link}
            to={item.to}
            aria-label={`${item.label}: ${item.value === undefined ? '' : formatNumber(item.value)}`}
            aria-current={item.active ? 'page' : undefined}
          >
            {body}
          </UnstyledButton>
        ) : (
          <div key={item.label}>{body}</div>
        );
      })}
    </SimpleGrid>
  );
}
