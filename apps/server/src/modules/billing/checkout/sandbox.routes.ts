import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CheckoutService } from '../checkout.service.ts';
import { acceptForms } from '../billing.routes.ts';
import { checkoutForm, decodeData, verifySignature } from './liqpay.ts';

const escapeHtml = (v: unknown) =>
  String(v ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:32px;max-width:420px;width:100%}
h1{font-size:20px;margin:0 0 4px}.note{color:#a15c00;font-size:13px;margin:0 0 20px}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}
dt{color:#666}dd{margin:0;font-weight:600;word-break:break-all}.actions{display:flex;gap:12px;margin-top:24px}form{flex:1}
button{width:100%;padding:12px;border:0;border-radius:8px;font-size:16px;cursor:pointer}.pay{background:#2f9e44;color:#fff}.decline{background:#e9ecef}
</style></head><body><main>${body}</main></body></html>`);
}

/**
 * The app's own stand-in for LiqPay's hosted checkout, served when no LiqPay keys are configured:
 * it takes the same POSTed `data` and `signature`, shows the order with Pay and Decline, sends the
 * signed server callback LiqPay would send (status `sandbox` or `failure`) through the same
 * verification as a real one, and returns the browser to `result_url`.
 */
export async function sandboxCheckoutRoutes(
  app: FastifyInstance,
  { checkout, appUrl }: { checkout: CheckoutService; appUrl: string },
) {
  acceptForms(app);

  async function readForm(body: unknown) {
    const k = await checkout.keys();
    if (k.checkoutUrl !== `${appUrl}/checkout/sandbox`) return { keys: k, params: null, live: true };
    const form = (body ?? {}) as Record<string, unknown>;
    const data = typeof form.data === 'string' ? form.data : '';
    const signature = typeof form.signature === 'string' ? form.signature : '';
    const params = data && verifySignature(k.privateKey, data, signature) ? decodeData(data) : null;
    return { keys: k, params, data, signature, live: false };
  }

  const refused = (reply: FastifyReply) =>
    page(reply, 400, 'Checkout', '<h1>This payment form is not valid.</h1><p>Open the checkout again from Herald.</p>');

  app.get('/checkout/sandbox', (_request, reply) => refused(reply));

  app.post('/checkout/sandbox', async (request, reply) => {
    const form = await readForm(request.body);
    if (form.live) return reply.code(404).send();
    const p = form.params;
    if (!p || p.public_key !== form.keys.publicKey) return refused(reply);
    const hidden = `<input type="hidden" name="data" value="${escapeHtml(form.data)}"><input type="hidden" name="signature" value="${escapeHtml(form.signature)}">`;
    return page(
      reply,
      200,
      'Sandbox checkout',
      `<h1>Sandbox checkout</h1><p class="note">No real money moves: this page stands in for the payment provider.</p>
<dl><dt>Order</dt><dd>${escapeHtml(p.order_id)}</dd><dt>Description</dt><dd>${escapeHtml(p.description)}</dd>
<dt>Amount</dt><dd>${escapeHtml(p.amount)} ${escapeHtml(p.currency)}</dd></dl>
<div class="actions"><form method="post" action="/checkout/sandbox/complete">${hidden}<input type="hidden" name="decision" value="pay"><button class="pay" type="submit">Pay</button></form>
<form method="post" action="/checkout/sandbox/complete">${hidden}<input type="hidden" name="decision" value="decline"><button class="decline" type="submit">Decline</button></form></div>`,
    );
  });

  app.post('/checkout/sandbox/complete', async (request, reply) => {
    const form = await readForm(request.body);
    if (form.live) return reply.code(404).send();
    const p = form.params;
    if (!p || p.public_key !== form.keys.publicKey) return refused(reply);
    const pay = (request.body as Record<string, unknown>).decision === 'pay';
    const callback = checkoutForm(form.keys.privateKey, {
      version: 3,
      public_key: form.keys.publicKey,
      action: 'pay',
      status: pay ? 'sandbox' : 'failure',
      order_id: p.order_id,
      payment_id: `sandbox-${randomBytes(6).toString('hex')}`,
      amount: p.amount,
      currency: p.currency,
      description: p.description,
      ...(pay ? {} : { err_code: 'cancel', err_description: 'Declined on the sandbox checkout' }),
    });
    await checkout.applyCallback(callback.data, callback.signature);
    const back =
      typeof p.result_url === 'string' && p.result_url.startsWith(`${appUrl}/`) ? p.result_url : `${appUrl}/`;
    return reply.code(303).header('location', back).send();
  });
}
