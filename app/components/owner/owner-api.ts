import { UPLOAD_FIELD } from "#domain/media/upload-limits.ts";
import type { OwnerImage } from "#domain/owners/owner-property.ts";
import { uploadOwnerImages } from "#domain/owners/owners.contract.ts";
import { readAnswer } from "#app/api-client.ts";

/** `path` with the page's language, so the server's messages come back in it. */
function withLanguage(path: string, language: string, query: Record<string, string> = {}) {
  const params = new URLSearchParams({ ...query, lang: language });
  return `${path}?${params}`;
}

export interface UploadAnswer {
  ok: boolean;
  status: number;
  images: OwnerImage[];
  /** The server's `{message}`, already in the page's language. */
  message: string | null;
}

/**
 * Uploads one image (multipart field `images`) and reports its progress, 0 to 1. XHR rather
 * than fetch: only XHR reports upload progress. Network failures answer status 0.
 */
export function uploadOwnerImage(
  file: File,
  options: { propertyId: number; language: string; onProgress: (fraction: number) => void },
): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open(
      "POST",
      withLanguage(uploadOwnerImages.path, options.language, {
        propertyId: String(options.propertyId),
      }),
    );
    xhr.setRequestHeader("Accept", "application/json");
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText || "null");
      } catch {
        // A proxy's HTML error page: the status says enough.
      }
      const answer = readAnswer(uploadOwnerImages, xhr.status, body);
      resolve({
        ok: answer.ok,
        status: answer.status,
        images: answer.ok ? answer.data.images : [],
        message: answer.message,
      });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0, images: [], message: null });
    xhr.onabort = xhr.onerror;
    const form = new FormData();
    form.append(UPLOAD_FIELD, file, file.name);
    xhr.send(form);
  });
}
