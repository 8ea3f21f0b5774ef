import type { TPermission } from '@herald/shared/auth/permissions';
import {
  IconAddressBook,
  IconChartBar,
  IconDatabase,
  IconId,
  IconMessage2,
  IconPhoneCheck,
  IconSettings,
  IconSpeakerphone,
  IconUsersGroup,
  type Icon,
} from '@tabler/icons-react';

export interface MenuItem {
  /** Key of the `common` catalogue. */
  label: string;
  path: string;
  icon: Icon;
  /** Shown only to roles that have it (`permissions` of `GET /user`). */
  permission: TPermission;
  /** Also active on nested paths (e.g. /sources/12). */
  matchNested?: boolean;
  /** Another path prefix under which the item is active (audiences live at / and /audiences/…). */
  matchAlso?: string;
}

/**
 * The left menu. Capabilities add their line here as they land (audiences, campaigns, templates,
 * alpha names, lookup management, request demo). Operators see only Leads.
 */
export const MENU: readonly MenuItem[] = [
  { label: 'nav.audiences', path: '/', icon: IconUsersGroup, permission: 'segments:read', matchAlso: '/audiences' },
  { label: 'nav.leads', path: '/leads', icon: IconAddressBook, permission: 'leads:read', matchNested: true },
  { label: 'nav.sources', path: '/sources', icon: IconDatabase, permission: 'sources:manage', matchNested: true },
  {
    label: 'nav.campaigns',
    path: '/campaigns',
    icon: IconSpeakerphone,
    permission: 'campaigns:read',
    matchNested: true,
  },
  { label: 'nav.templates', path: '/sms-templates', icon: IconMessage2, permission: 'templates:manage' },
  { label: 'nav.alphaNames', path: '/alpha-names', icon: IconId, permission: 'alpha-names:manage' },
  {
    label: 'nav.lookups',
    path: '/lookup-management',
    icon: IconPhoneCheck,
    permission: 'lookups:read',
  },
  { label: 'nav.analytics', path: '/analytics', icon: IconChartBar, permission: 'dashboard:read' },
  { label: 'nav.settings', path: '/settings', icon: IconSettings, permission: 'settings:manage', matchNested: true },
];
