import { Center, Group, Paper, Stack } from '@mantine/core';
import { LanguageSelect } from '../../components/language-select.tsx';
import { Logo } from '../../components/logo.tsx';
import { RouteOutlet } from './route-suspense.tsx';

/** The frame of the public pages: a centred card with the logo and the language selector. */
export function AuthLayout() {
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Stack w="100%" maw={440} gap="md">
        <Group justify="space-between">
          <Logo />
          <LanguageSelect />
        </Group>
        <Paper withBorder shadow="sm" radius="md" p="xl" component="main">
          <RouteOutlet />
        </Paper>
      </Stack>
    </Center>
  );
}
