import { ZPageQuery } from '@herald/shared/common/pagination.schemas';
import { describe, expect, it } from 'vitest';
import { pageArgs } from './paging.ts';

const ORDER = ['name', 'created_at', 'id'] as const;
const query = (q: Record<string, unknown>) => ZPageQuery.parse(q);

describe('the page a table asks for', () => {
  it('starts where its page starts and is as long as its limit', () => {
    expect(pageArgs(query({ page: '3', limit: '15' }), ORDER, { field: 'created_at', dir: 'desc' })).toEqual({
      offset: 30,
      limit: 15,
      search: undefined,
      order: { field: 'created_at', dir: 'desc' },
    });
  });

  it('orders by a whitelisted column in the direction asked', () => {
    const args = pageArgs(query({ order: ['name,asc'] }), ORDER, { field: 'created_at', dir: 'desc' });
    expect(args.order).toEqual({ field: 'name', dir: 'asc' });
  });

  it('falls back to the default column for any other, keeping the direction asked', () => {
    const args = pageArgs(query({ order: ['password,asc'] }), ORDER, { field: 'created_at', dir: 'desc' });
    expect(args.order).toEqual({ field: 'created_at', dir: 'asc' });
  });

  it('takes the default direction when no order is asked', () => {
    expect(pageArgs(query({}), ORDER, { field: 'id', dir: 'asc' }).order).toEqual({ field: 'id', dir: 'asc' });
  });

  it('trims the search and drops a blank one', () => {
    expect(pageArgs(query({ search: '  anna ' }), ORDER, { field: 'id', dir: 'asc' }).search).toBe('anna');
    expect(pageArgs(query({ search: '   ' }), ORDER, { field: 'id', dir: 'asc' }).search).toBeUndefined();
  });
});
