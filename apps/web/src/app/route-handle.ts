/** What a route tells the shell: its breadcrumb, as a key of the `common` catalogue. */
export interface RouteHandle {
  crumb?: string;
}
