import type { ComponentType } from 'react';
import type { Params } from 'react-router';

/** What a route tells the shell: its breadcrumb, as a key of the `common` catalogue or a component. */
export interface RouteHandle {
  crumb?: string;
  /** Where the crumb links, when not the route's own path (/audiences is shown at /). */
  crumbPath?: string;
  /** For crumbs named by data (a source's or list's name); rendered as the crumb's text. */
  Crumb?: ComponentType<{ params: Params }>;
}
