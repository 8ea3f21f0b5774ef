import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { formatNumber } from '../lib/format.ts';

/** The counts in a page header (Total leads, Today, …). */
export function StatCards({
  items,
  loading,
}: {
  items: { label: string; value: number | undefined }[];
  loading?: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 2, sm: items.length }} spacing="sm">
      {items.map((item) => (
        <Paper key={item.label} withBorder radius="md" px="md" py="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {item.label}
          </Text>
          {loading || item.value === undefined ? (
            <Skeleton height={26} mt={4} width={60} />
          ) : (
            <Text fw={700} fz={22} mt={2}>
              {formatNumber(item.value)}
            </Text>
          )}
        </Paper>
      ))}
    </SimpleGrid>
  );
}
