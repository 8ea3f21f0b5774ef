import { Table, type TableProps } from '@mantine/core';
import type { CSSProperties } from 'react';

interface Props extends TableProps {
  /** Below this width the table scrolls sideways inside its box instead of squeezing its columns. */
  minWidth: number;
  /** Taller tables scroll inside their box, under a header that stays. */
  maxHeight?: string;
  /**
   * Columns that stay in view on sideways scrolls: 1, or 2 when a selection checkbox comes first,
   * so that the row's name stays beside it (tables.css).
   */
  stickyColumns?: 1 | 2;
  /** The last column (status or actions) stays at the right edge too (tables.css). */
  stickyLast?: boolean;
}

/**
 * A table that scrolls inside its own box with its header and first column (or checkbox and
 * first column) kept in view, so that a row is never read without knowing whose it is; with
 * `stickyLast`, its status or actions column too.
 */
export function ScrollTable({
  minWidth,
  maxHeight = 'calc(100dvh - 220px)',
  stickyColumns = 1,
  stickyLast = false,
  children,
  ...table
}: Props) {
  return (
    <Table.ScrollContainer minWidth={minWidth} maxHeight={maxHeight}>
      <Table
        verticalSpacing="xs"
        // Narrow gutters: a list's whole row, up to its status, fits a laptop in Ukrainian.
        horizontalSpacing="xs"
        highlightOnHover
        stickyHeader
        data-sticky-first={stickyColumns}
        data-sticky-last={stickyLast || undefined}
        {...table}
      >
        {children}
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Props for a cell's text (Mantine `Text` or `Anchor`): it wraps at spaces (a word breaks only
 * when it is longer than the column may grow), stops after `lines` lines and shows the whole value
 * on hover. `nowrap` is for values that read badly broken (phones, e-mail addresses): the column
 * takes their width instead. `name` is for a row's name, which keeps room enough to be read
 * before the counts beside it get theirs (less on a phone, where the rest scrolls under it).
 */
export function cellText(value: string, { nowrap = false, name = false, lines = 2, maxWidth = '20rem' } = {}) {
  const style: CSSProperties = nowrap
    ? { whiteSpace: 'nowrap' }
    : { overflowWrap: 'break-word', maxWidth, minWidth: name ? 'min(12rem, 40vw)' : undefined };
  return { lineClamp: lines, title: value || undefined, style };
}
