import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { PASSWORD, signUpVerified } from './support/accounts.ts';
import { api, seedFirstDay } from './support/first-day-data.ts';
import { addSimulatorGateway } from './support/gateways.ts';
import { linkFromMail } from './support/mail.ts';

const SHOTS = process.env.HERALD_E2E_SHOTS ?? 'test-results/layout-fit';
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const LANGS = ['uk', 'en', 'ru'] as const;

test.describe.configure({ mode: 'serial' });

let token = '';
let ids = { sourceId: 0, listId: 0, fileId: 0, segmentId: 0, leadId: 0 };

async function pageAs(browser: Browser, lang: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(
    ([t, l]) => {
      localStorage.setItem('herald.token', t);
      localStorage.setItem('herald.lang', l);
    },
    [token, lang],
  );
  return context.newPage();
}

/** Shown: the main part has text and nothing in the page is still loading. */
async function shown(page: Page) {
  await expect(page.locator('main')).toContainText(/\p{L}/u);
  await expect(page.locator('.mantine-Skeleton-root, .mantine-Loader-root')).toHaveCount(0);
}

/**
 * A team as a marketer has it after a first day: long Ukrainian names, the spec's lead columns and
 * three custom attributes with long values, a second member, a template, a gateway, an alpha name.
 */
test('seed a team', async ({ browser }) => {
  test.setTimeout(300_000);
  const page = await browser.newPage();
  await page.addInitScript(() => localStorage.setItem('herald.lang', 'en'));
  await signUpVerified(page, 'Олександра Костянтинопольська', `layout-${Date.now()}@example.com`);
  token = (await page.evaluate(() => localStorage.getItem('herald.token'))) ?? '';
  const seed = await seedFirstDay(page, token);
  await api(page, token, 'post', '/lead-attributes', [{ name: 'Місто доставки' }, { name: 'Посада контактної особи' }]);
  const attributes = (await api(page, token, 'get', '/lead-attributes')) as {
    data: { id: number; name: string; type: string }[];
  };
  const value = (name: string) => attributes.data.find((a) => a.name === name)?.id ?? 0;
  const phone = attributes.data.find((a) => a.type === 'phone')?.id ?? 0;
  const lead = await api(page, token, 'post', '/leads', {
    source_id: seed.sourceId,
    list_id: seed.listId,
    attributes: [
      { attr_id: phone, value: '+380501110004' },
      { attr_id: value('Коментар'), value: 'Просила передзвонити після виставки щодо оптових цін на насіння' },
      { attr_id: value('Місто доставки'), value: 'Кам’янець-Подільський' },
      { attr_id: value('Посада контактної особи'), value: 'Головний агроном фермерського господарства' },
    ],
  });
  const segments = (await api(page, token, 'get', '/segments')) as { data: { id: number }[] };
  ids = { ...seed, segmentId: segments.data[0]?.id ?? 0, leadId: lead.id };

  await api(page, token, 'post', '/config/template/sms', {
    name: 'Запрошення на дегустацію нового сорту пшениці',
    type_id: 'promotion',
    message: 'Вітаємо! Запрошуємо на дегустацію нового сорту пшениці у суботу.',
  });
  await api(page, token, 'post', '/alpha-names/store', { name: 'AgroKyiv' });
  await addSimulatorGateway(page, 'en');
  // A lookup of the list for /lookup-management's table: a lookup-only simulator; without money
  // it stays paused with its reason, a long text in its row.
  await api(page, token, 'post', '/config/gateway/messaging', {
    type: 'simulator',
    name: 'Перевірка операторів (симулятор)',
    active: true,
    default: false,
    allow_lookup: true,
    credentials: {},
  });
  await api(page, token, 'post', '/sources/lists/lookup', { ids: [seed.listId] });

  const email = `layout-member-${Date.now()}@example.com`;
  await api(page, token, 'post', '/invitations', { email, role: 'team_admin' });
  const invite = (await linkFromMail(email, '/invite/')).split('/invite/')[1];
  const registered = await page.request.post('/api/auth/invite/register', {
    data: {
      name: 'Володимир Коваленко-Загорулько',
      email,
      password: PASSWORD,
      password_confirmation: PASSWORD,
      token: invite,
    },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  await page.context().close();
});

/** The pages with tables, and what each table is called (its aria-label or the first header). */
const TABLE_ROUTES = () => [
  '/leads',
  `/sources/${ids.sourceId}/${ids.listId}`,
  '/sources',
  `/sources/${ids.sourceId}`,
  '/',
  `/audiences/${ids.segmentId}/leads`,
  '/profile/team',
  '/sms-templates',
  '/settings',
  '/alpha-names',
  '/settings/system-attributes',
  '/settings/import-history',
  `/settings/import-history/${ids.fileId}`,
  '/profile/transactions',
  '/lookup-management',
];

/** What does not fit: tables wider than their box or the window, and words cut in their cells. */
async function tableProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const tables = [...document.querySelectorAll('main table')] as HTMLTableElement[];
    for (const table of tables) {
      const name = table.getAttribute('aria-label') ?? table.querySelector('th')?.textContent ?? '?';
      const box = table.getBoundingClientRect();
      let scroller: HTMLElement | null = table.parentElement;
      while (scroller && scroller !== document.body && getComputedStyle(scroller).overflowX === 'visible') {
        scroller = scroller.parentElement;
      }
      const scrolls = scroller && scroller !== document.body && scroller.scrollWidth > scroller.clientWidth + 1;
      // Wider content may scroll inside a table only under a first column that stays (and a last
      // one, the status or actions, where the table has it).
      if (scrolls && !table.hasAttribute('data-sticky-first')) {
        problems.push(`${name}: scrolls sideways (${scroller?.scrollWidth} > ${scroller?.clientWidth})`);
      }
      if (scrolls && scroller) {
        const edge = scroller.getBoundingClientRect();
        const heads = table.querySelectorAll('thead th');
        const kept = table.hasAttribute('data-sticky-last') ? [heads[0], heads[heads.length - 1]] : [heads[0]];
        for (const head of kept) {
          const r = head?.getBoundingClientRect();
          if (r && (r.left < edge.left - 1 || r.right > edge.right + 1)) {
            problems.push(`${name}: "${head.textContent}" is out of view`);
          }
        }
      }
      const visibleRight = scroller && scroller !== document.body ? scroller.getBoundingClientRect().right : box.right;
      if (visibleRight > window.innerWidth + 1) problems.push(`${name}: ends at ${Math.round(visibleRight)} px`);
      for (const label of table.querySelectorAll<HTMLElement>(
        '.mantine-Button-label, .mantine-Badge-label, th, .mantine-Anchor-root',
      )) {
        if (label.scrollWidth > label.clientWidth + 1 && getComputedStyle(label).overflow !== 'visible') {
          problems.push(`${name}: "${label.textContent}" is cut (${label.scrollWidth} > ${label.clientWidth})`);
        }
      }
    }
    return { count: tables.length, problems };
  });
}

for (const lang of LANGS) {
  test(`every table fits 1366 px in ${lang}`, async ({ browser }) => {
    test.setTimeout(240_000);
    const page = await pageAs(browser, lang, LAPTOP);
    mkdirSync(SHOTS, { recursive: true });
    const all: string[] = [];
    for (const route of TABLE_ROUTES()) {
      await page.goto(route);
      await shown(page);
      const { count, problems } = await tableProblems(page);
      if (count === 0) all.push(`${route}: no table`);
      all.push(...problems.map((p) => `${route} ${p}`));
      await page.screenshot({ path: `${SHOTS}/table-${lang}-${route.replaceAll('/', '_') || 'home'}.png` });
    }
    expect(all).toEqual([]);
  });
}

test('a duplicates count in the leads and list tables opens the lead with its duplicates', async ({ browser }) => {
  const page = await pageAs(browser, 'en', LAPTOP);
  for (const route of ['/leads', `/sources/${ids.sourceId}/${ids.listId}`]) {
    await page.goto(route);
    const count = page.getByRole('table').locator('[data-duplicates-link]').first();
    await expect(count).toHaveText('1');
    // Reached from the keyboard: focus scrolls the table to it, and Enter follows it. A pointer's
    // click lands wherever the sideways scroll leaves the count beside the sticky status column,
    // which differs with the fonts a machine has; the sweeps above measure that nothing is cut.
    await count.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/\d+\?show=duplicates$/);
    await expect(page.getByRole('region', { name: 'Leads that share its phones' })).toBeVisible();
  }
  await page.context().close();
});

/** Every screen a signed-in user can reach, and the signed-out ones. */
const ALL_ROUTES = () => [
  ...TABLE_ROUTES(),
  `/leads/${ids.leadId}`,
  `/audiences/${ids.segmentId}/segments`,
  '/analytics',
  '/profile/team/invites',
  '/settings/ignore-phone-format',
  '/settings/alpha-names',
  '/settings/short-url-domains',
  '/profile',
  '/profile/security',
  '/profile/subscriptions',
  '/old-profile',
  '/no-such-page',
];

for (const lang of LANGS) {
  test(`nothing is wider than a 390 px phone in ${lang}`, async ({ browser }) => {
    test.setTimeout(480_000);
    const page = await pageAs(browser, lang, PHONE);
    const wide: string[] = [];
    const check = async (what: string) => {
      const sizes = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (sizes[0] > sizes[1]) wide.push(`${what}: ${sizes[0]} > ${sizes[1]}`);
    };
    for (const route of ALL_ROUTES()) {
      await page.goto(route);
      await shown(page);
      await check(route);
    }
    // The header's balance popover opens over the page, not past its edge.
    await page.goto('/leads');
    await shown(page);
    await page.locator('header button:has(.tabler-icon-wallet)').click();
    const popover = page.locator('.mantine-Popover-dropdown').filter({ visible: true });
    await expect(popover).toBeVisible();
    await check('balance popover');
    const box = await popover.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    await page.screenshot({ path: `${SHOTS}/phone-${lang}-balance.png` });
    await page.context().close();

    const guest = await (await browser.newContext({ viewport: PHONE })).newPage();
    await guest.addInitScript((l) => localStorage.setItem('herald.lang', l), lang);
    for (const route of ['/signin', '/register', '/forgot-password', '/terms']) {
      await guest.goto(route);
      await expect(guest.getByRole('heading').first()).toBeVisible();
      const sizes = await guest.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (sizes[0] > sizes[1]) wide.push(`${route}: ${sizes[0]} > ${sizes[1]}`);
    }
    expect(wide).toEqual([]);
  });
}
