import { useParams } from 'react-router';

/** A numeric route parameter; 0 when missing or not a number (the API answers 404 for it). */
export function useIdParam(name: string): number {
  const value = Number(useParams()[name]);
  return Number.isInteger(value) && value > 0 ? value : 0;
}
