import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../config.ts';
import { DEFAULT_PLANS_FILE, DEFAULT_PRICES_FILE, loadCatalogue, loadPrices } from './catalogue.ts';

const shipped = () => JSON.parse(readFileSync(DEFAULT_PLANS_FILE, 'utf8'));
const write = (content: unknown) => {
  const file = join(mkdtempSync(join(tmpdir(), 'herald-catalogue-')), 'file.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};
const refusal = (load: () => unknown) => {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('the plan catalogue', () => {
  it('ships a valid catalogue: a hidden Trial and five plans, Enterprise without a price', () => {
    const catalogue = loadCatalogue(undefined);
    expect(catalogue.trial.slug).toBe('trial');
    expect(catalogue.available().map((p) => p.slug)).toEqual([
      'starter-pack',
      'basic',
      'professional',
      'pro',
      'enterprise',
    ]);
    expect(catalogue.available().at(-1)).toMatchObject({ price: null, contact_us: true });
    // Prices rise with the plans, and so do the limits.
    const paid = catalogue.plans.filter((p) => !p.trial && p.price !== null);
    for (let i = 1; i < paid.length; i++) {
      expect(paid[i].price as number).toBeGreaterThan(paid[i - 1].price as number);
      expect(paid[i].features['lead-limit'] as number).toBeGreaterThan(paid[i - 1].features['lead-limit'] as number);
    }
  });

  it('never gives a paid plan less than the free Trial, feature by feature', () => {
    const catalogue = loadCatalogue(undefined);
    const trial = catalogue.trial.features;
    // A flag: on is more than off. A count: null (unlimited) is more than any number.
    const atLeast = (paid: unknown, free: unknown) =>
      typeof free === 'boolean'
        ? paid === true || free === false
        : paid === null || (free !== null && typeof paid === 'number' && paid >= (free as number));
    const less = catalogue.plans
      .filter((plan) => !plan.trial && plan.price !== null && plan.price > 0)
      .flatMap((plan) =>
        Object.entries(trial)
          .filter(([slug, free]) => !atLeast(plan.features[slug as keyof typeof trial], free))
          .map(([slug]) => `${plan.slug}.${slug}`),
      );
    expect(less).toEqual([]);
  });

  it('names the field of a wrong value', () => {
    const data = shipped();
    data.plans[2].features['lead-limit'] = 'many';
    const message = refusal(() => loadCatalogue(write(data)));
    expect(message).toContain('HERALD_PLANS_FILE');
    expect(message).toContain('plans.2.features.lead-limit');
  });

  it('names a missing feature and an unknown one', () => {
    const data = shipped();
    delete data.plans[1].features['attribute-limit'];
    data.plans[1].features['unlimited-coffee'] = true;
    const message = refusal(() => loadCatalogue(write(data)));
    expect(message).toContain('plans.1.features.attribute-limit');
    expect(message).toContain('unlimited-coffee');
  });

  it('refuses duplicate ids, no Trial, two Trials, an empty period and a file that is not JSON', () => {
    const dup = shipped();
    dup.plans[3].id = dup.plans[2].id;
    expect(refusal(() => loadCatalogue(write(dup)))).toContain('plans.3.id');
    const none = shipped();
    none.plans[0].trial = false;
    expect(refusal(() => loadCatalogue(write(none)))).toContain('exactly one plan must have "trial": true');
    const two = shipped();
    two.plans[1].trial = true;
    expect(refusal(() => loadCatalogue(write(two)))).toContain('exactly one plan');
    const zero = shipped();
    zero.plans[2].period = { months: 0, days: 0 };
    expect(refusal(() => loadCatalogue(write(zero)))).toContain('plans.2.period');
    expect(refusal(() => loadCatalogue(write('{ "plans": [')))).toContain('cannot be read as JSON');
    expect(refusal(() => loadCatalogue('/nonexistent/plans.json'))).toContain('/nonexistent/plans.json');
  });
});

describe('the price list', () => {
  it('prices an SMS part by country, the default elsewhere, and a lookup, per currency', () => {
    const prices = loadPrices(undefined);
    expect(prices.smsPart('UA', 'UAH')).toBe(50);
    expect(prices.smsPart('ua', 'UAH')).toBe(50);
    expect(prices.smsPart('JP', 'UAH')).toBe(800);
    expect(prices.smsPart('UA', 'USD')).toBe(1);
    expect(prices.lookup('EUR')).toBe(1);
  });

  it('names the field of a wrong price, a missing currency and a bad country code', () => {
    const data = JSON.parse(readFileSync(DEFAULT_PRICES_FILE, 'utf8'));
    data.UAH.sms_part.countries.UA = 0.5;
    data.USD.sms_part.countries.Ukraine = 1;
    delete data.EUR;
    const message = refusal(() => loadPrices(write(data)));
    expect(message).toContain('HERALD_PRICES_FILE');
    expect(message).toContain('UAH.sms_part.countries.UA');
    expect(message).toContain('USD.sms_part.countries.Ukraine');
    expect(message).toContain('EUR');
  });
});
