/**
 * When a campaign stops on its own (spec): once 1,000 of its messages were handed to the gateway,
 * it fails when 20 % of those failed. Messages not handed over (pending, refused for balance,
 * skipped) and those whose fate is open (unknown, unconfirmed) are not failures.
 */
export const AUTO_FAIL_AFTER = 1_000;
export const AUTO_FAIL_SHARE = 0.2;

export function autoFails(figures: { sent: number; failed: number }): boolean {
  return figures.sent >= AUTO_FAIL_AFTER && figures.failed >= figures.sent * AUTO_FAIL_SHARE;
}
