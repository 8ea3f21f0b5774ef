import { useCallback, useMemo, useState } from 'react';

/** Ids ticked in a table; only those still on the current page count (a page change drops the rest). */
export function useSelection(pageIds: number[]) {
  const [picked, setPicked] = useState<number[]>([]);
  const selected = useMemo(() => picked.filter((id) => pageIds.includes(id)), [picked, pageIds]);
  const allOnPage = pageIds.length > 0 && selected.length === pageIds.length;

  const toggle = useCallback(
    (id: number) => setPicked((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id])),
    [],
  );
  const toggleAll = useCallback(() => setPicked(allOnPage ? [] : pageIds), [allOnPage, pageIds]);
  const clear = useCallback(() => setPicked([]), []);

  return { selected, allOnPage, some: selected.length > 0 && !allOnPage, toggle, toggleAll, clear };
}
