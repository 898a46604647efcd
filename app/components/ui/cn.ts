import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. No tailwind-merge (8 KB gzipped in every page): a component's variants
 * cover its looks, so callers add classes (position, margins) rather than override them.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs);
}
