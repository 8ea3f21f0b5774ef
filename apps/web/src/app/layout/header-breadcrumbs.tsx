import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';
import type { RouteHandle } from '../route-handle.ts';

/** Breadcrumbs from the `handle.crumb` of each matched route. */
export function HeaderBreadcrumbs() {
  const { t } = useTranslation();
  const matches = useMatches();
  const crumbs = matches
    .filter((m) => (m.handle as RouteHandle | undefined)?.crumb)
    .map((m) => ({ path: m.pathname, label: t((m.handle as RouteHandle).crumb as string) }))
    .filter((c, i, all) => all.findIndex((o) => o.path === c.path) === i);

  return (
    <Breadcrumbs aria-label={t('breadcrumbs')} separatorMargin={6}>
      {crumbs.map((crumb, i) =>
        i === crumbs.length - 1 ? (
          <Text key={crumb.path} size="sm" fw={500} aria-current="page">
            {crumb.label}
          </Text>
        ) : (
          <Anchor key={crumb.path} component={Link} to={crumb.path} size="sm">
            {crumb.label}
          </Anchor>
        ),
      )}
    </Breadcrumbs>
  );
}
