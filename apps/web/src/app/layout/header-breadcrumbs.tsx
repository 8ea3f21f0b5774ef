import { Anchor, Box, Breadcrumbs, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';
import type { RouteHandle } from '../route-handle.ts';

/** Breadcrumbs from the `handle` of each matched route, so they follow the context of a page. */
export function HeaderBreadcrumbs() {
  const { t } = useTranslation();
  const matches = useMatches();
  const crumbs: { path: string; label: ReactNode }[] = [];
  for (const m of matches) {
    const handle = m.handle as RouteHandle | undefined;
    if (!handle?.crumb && !handle?.Crumb) continue;
    const path = handle.crumbPath ?? m.pathname;
    if (crumbs.some((c) => c.path === path)) continue;
    const label = handle.Crumb ? <handle.Crumb params={m.params} /> : t(handle.crumb as string);
    crumbs.push({ path, label });
  }

  return (
    <Box component="nav" aria-label={t('breadcrumbs')} miw={0}>
      <Breadcrumbs separatorMargin={6}>
        {crumbs.map((crumb, i) =>
          i === crumbs.length - 1 ? (
            <Text key={crumb.path} size="sm" fw={500} aria-current="page" truncate maw={240}>
              {crumb.label}
            </Text>
          ) : (
            <Anchor key={crumb.path} component={Link} to={crumb.path} size="sm" truncate maw={200}>
              {crumb.label}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </Box>
  );
}
