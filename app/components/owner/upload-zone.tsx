import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { CircleAlert, CircleCheck, ImageUp, X } from "lucide-react";
import { toast } from "#app/hooks/use-toast.ts";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { uploadOwnerImage } from "./owner-api.ts";
import { translateIssue } from "./owner-messages.ts";
import {
  checkUploadFile,
  MAX_UPLOAD_MB,
  runInPool,
  UPLOAD_ACCEPT,
  UPLOAD_CONCURRENCY,
} from "./upload-files.ts";

interface UploadItem {
  id: string;
  name: string;
  /** 0 to 1. */
  progress: number;
  status: "queued" | "uploading" | "done" | "failed";
  error: string | null;
}

let nextUploadId = 0;

/**
 * Drop images here or choose them: each file is checked in the browser (type, 20 MB), then
 * sent on its own request, two at a time, with its own progress bar. When a batch is done the
 * gallery reloads (`onUploaded`).
 */
export function UploadZone({
  propertyId,
  onUploaded,
}: {
  propertyId: number;
  onUploaded: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [items, setItems] = useState<UploadItem[]>([]);
  const [isDragging, setDragging] = useState(false);
  const [announcement, setAnnouncement] = useState("");
  const hintId = useId();

  const patch = (id: string, change: Partial<UploadItem>) =>
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));

  const start = async (files: File[]) => {
    if (files.length === 0) return;
    const batch = files.map((file) => {
      const issue = checkUploadFile(file);
      return {
        file,
        item: {
          id: `upload-${++nextUploadId}`,
          name: file.name,
          progress: 0,
          status: issue ? "failed" : "queued",
          error: issue ? translateIssue(t, i18n.language, issue) : null,
        } satisfies UploadItem,
      };
    });
    setItems((current) => [...batch.map((entry) => entry.item), ...current]);
    const sendable = batch.filter((entry) => entry.item.status === "queued");
    let uploaded = 0;
    await runInPool(sendable, UPLOAD_CONCURRENCY, async ({ file, item }) => {
      patch(item.id, { status: "uploading" });
      const answer = await uploadOwnerImage(file, {
        propertyId,
        language: i18n.language,
        onProgress: (progress) => patch(item.id, { progress }),
      });
      if (answer.ok) {
        uploaded += 1;
        patch(item.id, { status: "done", progress: 1 });
      } else
        patch(item.id, {
          status: "failed",
          error: answer.message ?? t("owner.errors.uploadFailed"),
        });
    });
    const failed = batch.length - uploaded;
    setAnnouncement(
      [
        uploaded > 0 ? t("owner.upload.doneCount", { count: uploaded }) : "",
        failed > 0 ? t("owner.upload.failedCount", { count: failed }) : "",
      ]
        .filter(Boolean)
        .join(" "),
    );
    if (uploaded > 0) {
      toast({
        title: t("owner.upload.doneTitle"),
        description: t("owner.upload.doneCount", { count: uploaded }),
      });
      await onUploaded();
    }
  };

  const onFiles = (list: FileList | null) => {
    void start(list ? [...list] : []);
  };

  const finished = items.filter((item) => item.status === "done" || item.status === "failed");

  return (
    <section aria-labelledby={`${hintId}-title`} className="grid gap-4">
      <h3 id={`${hintId}-title`} className="text-heritage text-2xl font-semibold">
        {t("owner.upload.heading")}
      </h3>
      <div
        data-testid="upload-zone"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = "copy";
        }}
        onDragLeave={(event) => {
          // Leaving for a child of the zone is not leaving the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          onFiles(event.dataTransfer.files);
        }}
        className={cn(
          "flex flex-col items-center gap-3 rounded-sm border-2 border-dashed px-6 py-10 text-center transition-colors",
          isDragging ? "border-heritage bg-heritage/5" : "border-gold/60 bg-paper",
        )}
      >
        <ImageUp aria-hidden className="text-heritage size-10" />
        <p className="text-ink">{t("owner.upload.drop")}</p>
        <Button
          type="button"
          variant="outline"
          onClick={() => input.current?.click()}
          aria-describedby={hintId}
        >
          {t("owner.upload.choose")}
        </Button>
        <p id={hintId} className="text-muted text-sm">
          {t("owner.upload.hint", { max: MAX_UPLOAD_MB })}
        </p>
        <input
          ref={input}
          type="file"
          multiple
          accept={UPLOAD_ACCEPT}
          tabIndex={-1}
          aria-hidden
          className="sr-only"
          data-testid="upload-input"
          onChange={(event) => {
            onFiles(event.currentTarget.files);
            // The same file chosen again is a new upload.
            event.currentTarget.value = "";
          }}
        />
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {items.length > 0 && (
        <div className="grid gap-3">
          <ul aria-label={t("owner.upload.listLabel")} className="grid gap-2" data-testid="uploads">
            {items.map((item) => (
              <UploadRow
                key={item.id}
                item={item}
                onDismiss={() => setItems((current) => current.filter((i) => i.id !== item.id))}
              />
            ))}
          </ul>
          {finished.length > 1 && (
            <div>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() =>
                  setItems((current) =>
                    current.filter(
                      (item) => item.status === "queued" || item.status === "uploading",
                    ),
                  )
                }
              >
                {t("owner.upload.clear")}
              </Button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

function UploadRow({ item, onDismiss }: { item: UploadItem; onDismiss: () => void }) {
  const { t, i18n } = useTranslation();
  const nameId = useId();
  const percent = new Intl.NumberFormat(i18n.language, { style: "percent" }).format(item.progress);
  const isActive = item.status === "queued" || item.status === "uploading";
  return (
    <li
      className={cn(
        "bg-paper grid gap-2 rounded-sm border px-4 py-3",
        item.status === "failed" ? "border-burgundy/50" : "border-gold/30",
      )}
      data-status={item.status}
    >
      <div className="flex items-center gap-3">
        {item.status === "done" && (
          <CircleCheck aria-hidden className="text-heritage size-5 shrink-0" />
        )}
        {item.status === "failed" && (
          <CircleAlert aria-hidden className="text-burgundy size-5 shrink-0" />
        )}
        <span id={nameId} className="text-ink min-w-0 flex-1 truncate text-sm font-medium">
          {item.name}
        </span>
        <span className="text-muted shrink-0 text-sm tabular-nums">
          {item.status === "queued"
            ? t("owner.upload.queued")
            : item.status === "uploading"
              ? percent
              : item.status === "done"
                ? t("owner.upload.done")
                : t("owner.upload.failed")}
        </span>
        {!isActive && (
          <button
            type="button"
            onClick={onDismiss}
            className="text-muted hover:text-ink hover:bg-ivory -my-1 shrink-0 rounded-sm p-1.5"
          >
            <X aria-hidden className="size-4" />
            <span className="sr-only">{t("owner.upload.dismiss", { name: item.name })}</span>
          </button>
        )}
      </div>
      {isActive && (
        <progress
          aria-labelledby={nameId}
          value={item.status === "queued" ? undefined : item.progress}
          max={1}
          className="accent-heritage [&::-moz-progress-bar]:bg-heritage [&::-webkit-progress-value]:bg-heritage h-2 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-stone-200"
        />
      )}
      {item.error && <p className="text-burgundy text-sm">{item.error}</p>}
    </li>
  );
}
