import { Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';

/** The mark and the name; `compactOnPhone`: the mark alone on a phone, where the app header's actions need the room. */
export function Logo({ compactOnPhone = false }: { compactOnPhone?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={30} radius="md" variant="filled" aria-hidden>
        <IconSpeakerphone size={18} />
      </ThemeIcon>
      <Text fw={700} size="lg" visibleFrom={compactOnPhone ? 'sm' : undefined}>
        Herald
      </Text>
      {compactOnPhone && <VisuallyHidden hiddenFrom="sm">Herald</VisuallyHidden>}
    </Group>
  );
}
