import type { TRole } from './roles.ts';

/**
 * What each role may do, as `area:action`. The server checks one of these on every protected
 * route; the web hides what the role cannot do. Capabilities add their permissions as they land.
 */
export const PERMISSIONS = {
  'profile:read': ['team_owner', 'team_admin', 'team_operator'],
  'profile:update': ['team_owner', 'team_admin', 'team_operator'],
  'events:read': ['team_owner', 'team_admin', 'team_operator'],
  // The menu's screens besides leads (home, analytics; audiences and campaigns later), hidden
  // from operators, who see only the leads menu (spec section 6).
  'dashboard:read': ['team_owner', 'team_admin'],
  'team:read': ['team_owner', 'team_admin'],
  'team:manage': ['team_owner', 'team_admin'],
  'invitations:manage': ['team_owner', 'team_admin'],
  // Operators work the leads table only: they may read and add leads, and add or edit a lead's
  // values, but not delete leads or values, change status, or manage sources, lists, attributes
  // and settings (decision 012).
  'leads:read': ['team_owner', 'team_admin', 'team_operator'],
  'leads:create': ['team_owner', 'team_admin', 'team_operator'],
  'leads:update': ['team_owner', 'team_admin', 'team_operator'],
  // Deleting leads or their values, and setting status: the spec's lead actions.
  'leads:manage': ['team_owner', 'team_admin'],
  'sources:read': ['team_owner', 'team_admin', 'team_operator'],
  'sources:manage': ['team_owner', 'team_admin'],
  'attributes:read': ['team_owner', 'team_admin', 'team_operator'],
  'attributes:manage': ['team_owner', 'team_admin'],
  'settings:manage': ['team_owner', 'team_admin'],
  // Imports start from the source and list screens and the settings' import history, which
  // operators do not see.
  'imports:read': ['team_owner', 'team_admin'],
  'imports:create': ['team_owner', 'team_admin'],
  // Audiences and their exports: operators cannot load audiences (spec section 6).
  'segments:read': ['team_owner', 'team_admin'],
  'segments:manage': ['team_owner', 'team_admin'],
  // Everyone sees their own balance and ledger; moving money (top-up, share, buying a plan) is the
  // owner's and admins' (spec section 6: operators cannot top up).
  'balance:read': ['team_owner', 'team_admin', 'team_operator'],
  'balance:manage': ['team_owner', 'team_admin'],
  // Plans and subscriptions: the owner and admins see and change them, operators do not.
  'plans:read': ['team_owner', 'team_admin'],
  'plans:manage': ['team_owner', 'team_admin'],
  // Request demo sits in the main menu, which operators do not see besides leads (spec section 2).
  'demo:request': ['team_owner', 'team_admin'],
  // SMS gateways: settings are the owner's and admins'; everyone who sends a single SMS (operators
  // too) may list the gateways that send, without their settings.
  'gateways:manage': ['team_owner', 'team_admin'],
  'gateways:send': ['team_owner', 'team_admin', 'team_operator'],
  // Operators list and load templates and read alpha names for the single SMS they send, but
  // cannot save templates or manage sender names (spec section 6).
  'templates:read': ['team_owner', 'team_admin', 'team_operator'],
  'templates:manage': ['team_owner', 'team_admin'],
  'alpha-names:read': ['team_owner', 'team_admin', 'team_operator'],
  'alpha-names:manage': ['team_owner', 'team_admin'],
  // Campaigns are hidden from operators with the rest of the menu besides leads (spec section 2).
  'campaigns:read': ['team_owner', 'team_admin'],
  'campaigns:manage': ['team_owner', 'team_admin'],
  // Lookups are paid and sit in the menu operators do not see (spec sections 2, 6).
  'lookups:read': ['team_owner', 'team_admin'],
  'lookups:manage': ['team_owner', 'team_admin'],
} as const satisfies Record<string, readonly TRole[]>;

export type TPermission = keyof typeof PERMISSIONS;

export function can(role: TRole, permission: TPermission): boolean {
  return (PERMISSIONS[permission] as readonly TRole[]).includes(role);
}
