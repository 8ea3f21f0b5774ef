import { Center, Group, Paper, Stack } from '@mantine/core';
import { Outlet } from 'react-router';
import { LanguageSelect } from '../../components/language-select.tsx';
import { Logo } from '../../components/logo.tsx';

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
          <Outlet />
        </Paper>
      </Stack>
    </Center>
  );
}
