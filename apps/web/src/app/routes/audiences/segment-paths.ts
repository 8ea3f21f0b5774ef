import type { TSegment } from '@herald/shared/segments/segments.schemas';

/** An audience lives at /audiences/{id}; a child segment under its parent's /segments/{subId}. */
export function segmentHref(segment: Pick<TSegment, 'id' | 'parent_segment_id'>): string {
  return segment.parent_segment_id
    ? `/audiences/${segment.parent_segment_id}/segments/${segment.id}/leads`
    : `/audiences/${segment.id}/leads`;
}
