import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useState } from 'react';

export type SortDir = 'asc' | 'desc';
export interface TableSort {
  field: string;
  dir: SortDir;
}

interface Stored {
  sort?: TableSort;
  hidden?: string[];
}

export const SEARCH_DEBOUNCE_MS = 500;
export const DEFAULT_PAGE_SIZE = 50;

function read(key: string): Stored {
  try {
    return JSON.parse(localStorage.getItem(`herald.table.${key}`) ?? '{}') as Stored;
  } catch {
    return {};
  }
}

function write(key: string, patch: Stored) {
  try {
    localStorage.setItem(`herald.table.${key}`, JSON.stringify({ ...read(key), ...patch }));
  } catch {
    // Storage full or disabled: the table still works, it just forgets on reload.
  }
}

/**
 * Page, size, search and sort of one table. Sort and hidden columns are kept per table in
 * localStorage (spec section 3); the search waits 500 ms and, like a size change, goes to page 1.
 */
export function useTableState(
  key: string,
  defaultSort: TableSort,
  pageSize = DEFAULT_PAGE_SIZE,
  /** Columns hidden until the user chooses otherwise. */
  defaultHidden: string[] = [],
) {
  const [page, setPage] = useState(1);
  const [limit, setLimitState] = useState(pageSize);
  const [search, setSearchState] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [appliedSearch, setAppliedSearch] = useState('');
  const [sort, setSortState] = useState<TableSort>(() => read(key).sort ?? defaultSort);
  const [hidden, setHiddenState] = useState<string[]>(() => read(key).hidden ?? defaultHidden);

  // Reset the page in the same render the debounced search lands, so no request goes out for
  // the new search on the old page.
  if (debouncedSearch !== appliedSearch) {
    setAppliedSearch(debouncedSearch);
    setPage(1);
  }

  const setLimit = useCallback((next: number) => {
    setLimitState(next);
    setPage(1);
  }, []);

  const toggleSort = useCallback(
    (field: string) => {
      setSortState((current) => {
        const next: TableSort =
          current.field === field ? { field, dir: current.dir === 'asc' ? 'desc' : 'asc' } : { field, dir: 'asc' };
        write(key, { sort: next });
        return next;
      });
      setPage(1);
    },
    [key],
  );

  const toggleHidden = useCallback(
    (column: string) => {
      setHiddenState((current) => {
        const next = current.includes(column) ? current.filter((c) => c !== column) : [...current, column];
        write(key, { hidden: next });
        return next;
      });
    },
    [key],
  );

  return {
    page,
    setPage,
    limit,
    setLimit,
    search,
    setSearch: setSearchState,
    appliedSearch,
    sort,
    toggleSort,
    hidden,
    toggleHidden,
    /** The query every list endpoint takes (spec section 7). */
    query: { page, limit, search: appliedSearch || undefined, 'order[0]': `${sort.field},${sort.dir}` },
  };
}

export type TableState = ReturnType<typeof useTableState>;
