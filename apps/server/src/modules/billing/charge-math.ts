/**
 * The price of one charge: an amount, or its SMS parts at a price with the free parts left
 * covering as many as they can (`free` is what is left of the period; null: the plan's SMS are free
 * without limit). Answers the minor units to take and the free parts used.
 */
export function priceOf(
  charge: { amount?: number; parts?: number; pricePerPart?: number },
  free: number,
  usesFreeSms: boolean,
): { amount: number; freeParts: number } {
  if (charge.parts === undefined) return { amount: charge.amount ?? 0, freeParts: 0 };
  if (!Number.isSafeInteger(charge.parts) || charge.parts < 0) return { amount: Number.NaN, freeParts: 0 };
  const freeParts = usesFreeSms ? Math.min(charge.parts, free) : 0;
  return { amount: (charge.parts - freeParts) * (charge.pricePerPart ?? 0), freeParts };
}

/** How many of `amounts` (in order) a balance covers: the longest prefix whose sum fits. */
export function coveredPrefix(amounts: number[], balance: number): number {
  let sum = 0;
  let fits = 0;
  while (fits < amounts.length && sum + amounts[fits] <= balance) sum += amounts[fits++];
  return fits;
}
