/**
 * Opens a hosted checkout the way LiqPay expects it: a form POST of `data` and `signature` from
 * the browser (spec section 7), so the page is left for the checkout's and comes back through
 * `redirect_url`. The form is built in the DOM rather than rendered, since it exists only to be
 * submitted once.
 */
import { i18n } from '../../lib/i18n.ts';

export function submitCheckout(checkout: { checkout_url: string; data: string; signature: string }) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = checkout.checkout_url;
  form.acceptCharset = 'utf-8';
  form.hidden = true;
  for (const [name, value] of [
    ['data', checkout.data],
    ['signature', checkout.signature],
    // Unsigned and harmless: the app's own test checkout speaks the user's language with it.
    ['language', i18n.language],
  ]) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
