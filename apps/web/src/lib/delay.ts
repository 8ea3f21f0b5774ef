/** Spec section 9: form submissions wait 500 ms before they are sent. */
export const SUBMIT_DELAY_MS = 500;

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
