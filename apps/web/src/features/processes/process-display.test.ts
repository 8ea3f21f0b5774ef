import {
  ACTIVE_PROCESS_STATUSES,
  FINISHED_PROCESS_STATUSES,
  PROCESS_PHASES,
  processMessage,
  type TProcess,
} from '@herald/shared/processes/processes.schemas';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en/common.json';
import ru from '../../locales/ru/common.json';
import uk from '../../locales/uk/common.json';
import { processColor, processLabelKeys, processNote } from './process-display.ts';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    resources: { en: { common: en }, uk: { common: uk }, ru: { common: ru } },
    defaultNS: 'common',
  });
});

const process = (over: Partial<TProcess>): TProcess => ({
  id: 1,
  kind: 'imports.run',
  title: 'leads.csv',
  status: 'running',
  phase: null,
  progress: 40,
  message: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const label = (p: TProcess, lng = 'en') => i18n.t(processLabelKeys(p), { lng });

describe('a process in the popover', () => {
  it('names an import’s phase while it runs, in its colour', () => {
    expect([label(process({ phase: 'resolving' })), processColor(process({ phase: 'resolving' }))]).toEqual([
      'Resolving',
      'grape',
    ]);
    expect([label(process({ phase: 'failing' })), processColor(process({ phase: 'failing' }))]).toEqual([
      'Failing',
      'red',
    ]);
    expect([label(process({ phase: 'cancelling' })), processColor(process({ phase: 'cancelling' }))]).toEqual([
      'Cancelling',
      'gray',
    ]);
    expect(label(process({ phase: 'cancelling' }), 'uk')).toBe('Скасування');
  });

  it('shows the status where the phase has no name of its own, or the kind names none', () => {
    expect([label(process({ phase: 'parsing' })), processColor(process({ phase: 'parsing' }))]).toEqual([
      'Running',
      'blue',
    ]);
    expect(label(process({ kind: 'segments.export', phase: 'failing' }))).toBe('Running');
    expect(label(process({ status: 'queued' }))).toBe('Queued');
  });

  it('shows only the status once the process has ended', () => {
    expect([
      label(process({ status: 'failed', phase: 'failing' })),
      processColor(process({ status: 'failed' })),
    ]).toEqual(['Failed', 'red']);
    expect(label(process({ status: 'completed', phase: 'resolving' }))).toBe('Completed');
  });

  it('counts a process taking leads back as under way', () => {
    expect(ACTIVE_PROCESS_STATUSES).toContain(process({ phase: 'failing' }).status);
  });

  it('has a name in every language for each phase it colours', () => {
    for (const lng of ['en', 'uk', 'ru']) {
      for (const phase of ['resolving', 'failing', 'cancelling'] as const) {
        expect(PROCESS_PHASES['imports.run']).toContain(phase);
        expect(label(process({ phase }), lng)).not.toBe(i18n.t('processes.status.running', { lng }));
      }
    }
  });

  it('shows a paused process in its own colour, neither under way nor ended', () => {
    const paused = process({ status: 'paused', phase: 'resolving' });
    expect([label(paused), label(paused, 'uk'), label(paused, 'ru'), processColor(paused)]).toEqual([
      'Paused',
      'Призупинено',
      'Приостановлено',
      'yellow',
    ]);
    expect([...ACTIVE_PROCESS_STATUSES, ...FINISHED_PROCESS_STATUSES]).not.toContain('paused');
  });

  it('reads what a process says from its code and params, never from a string', () => {
    expect(processNote(process({ status: 'completed', message: processMessage.leadsFailed(4, 17) }))).toEqual({
      kind: 'rows_failed',
      count: 4,
      importId: 17,
    });
    // An export's file is offered as a download beside it, not as text.
    expect(processNote(process({ kind: 'segments.export', message: processMessage.exportReady(5) }))).toBeNull();
    expect(processNote(process({ message: null }))).toBeNull();
    const failure = processNote(process({ status: 'failed', message: processMessage.failure('import_file_broken') }));
    expect(failure).toEqual({
      kind: 'text',
      keys: [
        'processes.message.import_file_broken',
        'imports:failure.import_file_broken',
        'errors:import_file_broken',
        'processes.failure',
      ],
      params: {},
    });
    // A code a newer server sends that this page does not know falls back to the job failing.
    const unknown = processNote(process({ status: 'failed', message: { code: 'campaign_gone', params: {} } }));
    expect(unknown?.kind === 'text' && i18n.t(unknown.keys)).toBe(i18n.t('processes.failure'));
  });

  it('words a campaign’s figures and why it paused, in each language', () => {
    const params = { campaign_id: 9, sent: 120, messages: 300 };
    const say = (code: string, lng: string) => {
      const note = processNote(process({ kind: 'campaigns.run', message: { code, params } }));
      return note?.kind === 'text' ? i18n.t(note.keys, { ...note.params, lng }) : null;
    };
    expect(say('campaign_progress', 'en')).toBe('Sent: 120 of 300');
    expect(say('campaign_progress', 'uk')).toBe('Надіслано: 120 з 300');
    expect(say('campaign_progress', 'ru')).toBe('Отправлено: 120 из 300');
    for (const lng of ['en', 'uk', 'ru']) {
      expect(say('campaign_policy_not_enough_balance', lng)).toContain('120');
      expect(say('campaign_paused', lng)).toContain('300');
      expect(say('campaign_policy_not_enough_balance', lng)).not.toBe(i18n.t('processes.failure', { lng }));
    }
  });
});
