import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';

export function Logo() {
  return (
    <Group gap={8} wrap="nowrap">
      <ThemeIcon size={30} radius="md" variant="filled" aria-hidden>
        <IconSpeakerphone size={18} />
      </ThemeIcon>
      <Text fw={700} size="lg">
        Herald
      </Text>
    </Group>
  );
}
