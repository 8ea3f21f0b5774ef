import { i18n } from './i18n.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** Timestamps as the spec shows them: YYYY-MM-DD HH:mm:ss, local time. */
export function formatDateTime(value: string | Date): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Money arrives in minor units (kopiyky, cents). */
export function formatMoney(minor: number, currency = 'UAH'): string {
  return new Intl.NumberFormat(i18n.language, { style: 'currency', currency }).format(minor / 100);
}

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0][0], parts[parts.length - 1][0]] : [parts[0]?.[0] ?? '?'];
  return letters.join('').toUpperCase();
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat(i18n.language).format(value);
}

/** Percentages are floored (spec section 9). */
export function formatPercent(value: number): string {
  return new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 }).format(
    Math.floor(value) / 100,
  );
}
