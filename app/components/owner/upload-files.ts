/**
 * What the upload zone accepts before a file leaves the browser. The server checks again (by
 * the file's bytes, not its name) and has the last word; this only spares a long upload that
 * would be refused.
 */

export const UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp", "image/avif"] as const;
/** The `accept` attribute of the file picker. */
export const UPLOAD_ACCEPT = UPLOAD_TYPES.join(",");
/** Largest file the upload takes, in MB (the server's limit). */
export const MAX_UPLOAD_MB = 20;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;
/** Files sent at the same time: two keep the line busy without starving the page. */
export const UPLOAD_CONCURRENCY = 2;

export interface UploadIssue {
  message: string;
  params: Record<string, string | number>;
}

/** Why a file cannot be uploaded (a translation key and its params), or null. */
export function checkUploadFile(file: { type: string; size: number }): UploadIssue | null {
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type))
    return { message: "owner.errors.uploadType", params: {} };
  if (file.size > MAX_UPLOAD_BYTES)
    return { message: "owner.errors.uploadTooLarge", params: { max: MAX_UPLOAD_MB } };
  return null;
}

/**
 * Runs `work` on every item, at most `limit` at a time, in order of the list; resolves when
 * all are done. `work` reports its own failures: one failing item does not stop the others.
 */
export async function runInPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
