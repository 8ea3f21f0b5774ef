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

type Words = Record<
  | 'title'
  | 'mark'
  | 'note'
  | 'order'
  | 'description'
  | 'amount'
  | 'payBy'
  | 'pay'
  | 'decline'
  | 'invalid'
  | 'again'
  | 'expired',
  string
>;

/** The page's words in the language the web names in the form (`language`), English otherwise. */
const WORDS: Record<'en' | 'uk' | 'ru', Words> = {
  en: {
    title: 'Sandbox checkout',
    mark: 'Test payments — no real money',
    note: 'This page stands in for the payment provider: Pay credits test money.',
    order: 'Order',
    description: 'Description',
    amount: 'Amount',
    payBy: 'Pay by',
    pay: 'Pay',
    decline: 'Decline',
    invalid: 'This payment form is not valid.',
    again: 'Open the checkout again from Herald.',
    expired: 'This order has expired. Open the checkout again from Herald.',
  },
  uk: {
    title: 'Тестова оплата',
    mark: 'Тестові платежі — без справжніх грошей',
    note: 'Ця сторінка замінює платіжного провайдера: «Сплатити» зараховує тестові гроші.',
    order: 'Замовлення',
    description: 'Опис',
    amount: 'Сума',
    payBy: 'Сплатити до',
    pay: 'Сплатити',
    decline: 'Відхилити',
    invalid: 'Ця платіжна форма недійсна.',
    again: 'Відкрийте оплату в Herald ще раз.',
    expired: 'Час на оплату цього замовлення минув. Відкрийте оплату в Herald ще раз.',
  },
  ru: {
    title: 'Тестовая оплата',
    mark: 'Тестовые платежи — без настоящих денег',
    note: 'Эта страница заменяет платёжного провайдера: «Оплатить» зачисляет тестовые деньги.',
    order: 'Заказ',
    description: 'Описание',
    amount: 'Сумма',
    payBy: 'Оплатить до',
    pay: 'Оплатить',
    decline: 'Отклонить',
    invalid: 'Эта платёжная форма недействительна.',
    again: 'Откройте оплату в Herald ещё раз.',
    expired: 'Время на оплату этого заказа истекло. Откройте оплату в Herald ещё раз.',
  },
};
const wordsOf = (body: unknown): Words => {
  const language = (body as Record<string, unknown> | undefined)?.language;
  return language === 'uk' || language === 'ru' ? WORDS[language] : WORDS.en;
};

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f4f6f8;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px #0002;padding:32px;max-width:420px;width:100%}
h1{font-size:20px;margin:0 0 4px}.note{color:#a15c00;font-size:13px;margin:0 0 20px}
.mark{display:inline-block;background:#fff3bf;color:#7c5700;border-radius:6px;padding:4px 8px;font-size:13px;font-weight:600;margin:0 0 8px}dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px}
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

  const refused = (reply: FastifyReply, w: Words = WORDS.en) =>
    page(reply, 400, w.title, `<h1>${escapeHtml(w.invalid)}</h1><p>${escapeHtml(w.again)}</p>`);
  // LiqPay's `expired_date` (UTC): past it the order is no longer paid here either.
  const expiresAt = (p: Record<string, unknown>) =>
    typeof p.expired_date === 'string' ? new Date(`${p.expired_date.replace(' ', 'T')}Z`) : null;
  const expired = (p: Record<string, unknown>) => {
    const at = expiresAt(p);
    return at !== null && at.getTime() < Date.now();
  };

  app.get('/checkout/sandbox', (_request, reply) => refused(reply));

  app.post('/checkout/sandbox', async (request, reply) => {
    const form = await readForm(request.body);
    if (form.live) return reply.code(404).send();
    const p = form.params;
    const w = wordsOf(request.body);
    if (!p || p.public_key !== form.keys.publicKey) return refused(reply, w);
    if (expired(p)) return page(reply, 410, w.title, `<h1>${escapeHtml(w.expired)}</h1>`);
    const language = (request.body as Record<string, unknown>).language;
    const hidden = `<input type="hidden" name="data" value="${escapeHtml(form.data)}"><input type="hidden" name="signature" value="${escapeHtml(form.signature)}"><input type="hidden" name="language" value="${escapeHtml(language)}">`;
    const by = expiresAt(p);
    const payBy = by ? `<dt>${w.payBy}</dt><dd>${by.toISOString().slice(0, 16).replace('T', ' ')} UTC</dd>` : '';
    return page(
      reply,
      200,
      w.title,
      `<p class="mark" data-testid="test-payments">${escapeHtml(w.mark)}</p><h1>${escapeHtml(w.title)}</h1><p class="note">${escapeHtml(w.note)}</p>
<dl><dt>${w.order}</dt><dd>${escapeHtml(p.order_id)}</dd><dt>${w.description}</dt><dd>${escapeHtml(p.description)}</dd>
<dt>${w.amount}</dt><dd>${escapeHtml(p.amount)} ${escapeHtml(p.currency)}</dd>${payBy}</dl>
<div class="actions"><form method="post" action="/checkout/sandbox/complete">${hidden}<input type="hidden" name="decision" value="pay"><button class="pay" type="submit">${w.pay}</button></form>
<form method="post" action="/checkout/sandbox/complete">${hidden}<input type="hidden" name="decision" value="decline"><button class="decline" type="submit">${w.decline}</button></form></div>`,
    );
  });

  app.post('/checkout/sandbox/complete', async (request, reply) => {
    const form = await readForm(request.body);
    if (form.live) return reply.code(404).send();
    const p = form.params;
    const w = wordsOf(request.body);
    if (!p || p.public_key !== form.keys.publicKey) return refused(reply, w);
    const pay = (request.body as Record<string, unknown>).decision === 'pay';
    if (pay && expired(p)) return page(reply, 410, w.title, `<h1>${escapeHtml(w.expired)}</h1>`);
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
