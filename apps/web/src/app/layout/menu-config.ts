import type { TPermission } from '@herald/shared/auth/permissions';
import { IconChartBar, IconHome, type Icon } from '@tabler/icons-react';

export interface MenuItem {
  /** Key of the `common` catalogue. */
  label: string;
  path: string;
  icon: Icon;
  /** Shown only to roles that have it (`permissions` of `GET /user`). */
  permission: TPermission;
  /** Also active on nested paths (e.g. /sources/12). */
  matchNested?: boolean;
}

/**
 * The left menu. Capabilities add their line here as they land (leads, sources, audiences,
 * campaigns, templates, alpha names, lookup management, request demo).
 */
export const MENU: readonly MenuItem[] = [
  { label: 'nav.home', path: '/', icon: IconHome, permission: 'profile:read' },
  { label: 'nav.analytics', path: '/analytics', icon: IconChartBar, permission: 'profile:read' },
];
