/**
 * The header's slot for account actions: Send SMS, the free SMS counter and the balance with its
 * top-up button arrive with billing and campaigns; until then it renders nothing.
 */
export function HeaderActions() {
  return null;
}
