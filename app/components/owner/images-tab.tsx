import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { Check, Trash2, Undo2 } from "lucide-react";
import type { OwnerImage, OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { ResponsiveImage } from "../responsive-image.tsx";
import { Button, buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from "../ui/dialog.tsx";
import { callApi } from "#app/api-client.ts";
import { deleteOwnerImage, updateOwnerImages } from "#domain/owners/owners.contract.ts";
import {
  isSameSelection,
  rankOf,
  reconcileSelection,
  savedSelection,
  toggleSelection,
} from "./selection.ts";
import { UploadZone } from "./upload-zone.tsx";

/** The Images tab's heading, where focus lands when another part of the page opens the tab. */
export const IMAGES_HEADING_ID = "owner-images-heading";

/**
 * The selection as the owner is making it. When the gallery reloads (after a save, an upload
 * or a delete) it follows the server unless there are unsaved changes, which it keeps.
 */
function useSelection(gallery: OwnerImage[]) {
  const [tracked, setTracked] = useState(() => ({ gallery, selection: savedSelection(gallery) }));
  let current = tracked;
  if (tracked.gallery !== gallery) {
    current = {
      gallery,
      selection: reconcileSelection({
        previousSaved: savedSelection(tracked.gallery),
        nextSaved: savedSelection(gallery),
        current: tracked.selection,
        existingKeys: gallery.map((image) => image.key),
      }),
    };
    // Adjusting state to new props during render (no effect, no flash of the old selection).
    setTracked(current);
  }
  const saved = savedSelection(gallery);
  return {
    selection: current.selection,
    isDirty: !isSameSelection(current.selection, saved),
    toggle: (key: string) =>
      setTracked((state) => ({ ...state, selection: toggleSelection(state.selection, key) })),
    reset: () => setTracked((state) => ({ ...state, selection: savedSelection(state.gallery) })),
  };
}

/**
 * The Images tab: a grid where a click, Space or Enter toggles an image; the
 * order of selection is the order guests see (1, 2, 3 on the images); 'Save selection' sends
 * it. Below, the upload zone; an owner's own uploads can be deleted.
 */
export function ImagesTab({ details }: { details: OwnerPropertyDetails }) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const { selection, isDirty, toggle, reset } = useSelection(details.gallery);
  const [isSaving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<{ image: OwnerImage; number: number } | null>(null);
  const [isDeleteBusy, setDeleteBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const total = details.gallery.length;
  const count = new Intl.NumberFormat(i18n.language);

  const save = async () => {
    setSaving(true);
    const answer = await callApi(
      updateOwnerImages,
      { query: {}, body: { selectedImages: selection, propertyId: details.id } },
      { language: i18n.language },
    );
    if (answer.ok) {
      toast({ title: t("owner.images.savedTitle"), description: t("owner.images.savedText") });
      await revalidator.revalidate();
    } else
      toast({
        variant: "destructive",
        title: t("forms.toast.errorTitle"),
        description: t("owner.images.saveFailed"),
      });
    setSaving(false);
  };

  const remove = async (image: OwnerImage) => {
    setDeleteBusy(true);
    const answer = await callApi(
      deleteOwnerImage,
      { params: { key: image.key }, query: { propertyId: details.id }, body: {} },
      { language: i18n.language },
    );
    setDeleteBusy(false);
    // The deleted image's button goes with it: focus returns to the heading instead.
    if (answer.ok) opener.current = null;
    setDeleting(null);
    if (answer.ok) {
      toast({ title: t("owner.images.deletedTitle"), description: t("owner.images.deletedText") });
      await revalidator.revalidate();
    } else
      toast({
        variant: "destructive",
        title: t("forms.toast.errorTitle"),
        description: answer.message ?? t("owner.images.deleteFailed"),
      });
  };

  return (
    <div className="grid gap-10">
      <section aria-labelledby={IMAGES_HEADING_ID} className="grid gap-5">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div className="max-w-2xl">
            <h2
              id={IMAGES_HEADING_ID}
              ref={heading}
              tabIndex={-1}
              className="text-heritage text-3xl font-semibold focus:outline-none"
            >
              {t("owner.images.heading")}
            </h2>
            <p className="text-muted mt-2">{t("owner.images.intro")}</p>
          </div>
          <p
            className="text-ink text-sm font-medium"
            aria-live="polite"
            data-testid="selected-count"
          >
            {t("owner.images.selectedCount", {
              count: selection.length,
              selected: count.format(selection.length),
              total: count.format(total),
            })}
          </p>
        </div>

        {total === 0 ? (
          <p className="border-gold/30 bg-paper text-muted rounded-sm border px-6 py-10 text-center">
            {t("owner.images.empty")}
          </p>
        ) : (
          <ul
            className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4"
            data-testid="image-grid"
          >
            {details.gallery.map((image, index) => (
              <ImageTile
                key={image.key}
                image={image}
                number={index + 1}
                total={total}
                rank={rankOf(selection, image.key)}
                onToggle={() => toggle(image.key)}
                onDelete={(event) => {
                  opener.current = event.currentTarget;
                  setDeleting({ image, number: index + 1 });
                }}
              />
            ))}
          </ul>
        )}

        <div className="border-gold/30 bg-paper sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-3 border-t px-4 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0">
          <Button
            type="button"
            onClick={() => void save()}
            disabled={isSaving || total === 0}
            data-testid="save-selection"
          >
            <Check aria-hidden className="size-4" />
            {isSaving ? t("owner.images.saving") : t("owner.images.save")}
          </Button>
          {isDirty && (
            <>
              <Button type="button" variant="ghost" onClick={reset} disabled={isSaving}>
                <Undo2 aria-hidden className="size-4" />
                {t("owner.images.reset")}
              </Button>
              <p className="text-muted text-sm">{t("owner.images.unsaved")}</p>
            </>
          )}
        </div>
      </section>

      <UploadZone propertyId={details.id} onUploaded={() => revalidator.revalidate()} />

      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => {
          if (!open && !isDeleteBusy) setDeleting(null);
        }}
      >
        {deleting && (
          <DialogContent
            closeLabel={t("owner.common.cancel")}
            className="max-w-md"
            onCloseAutoFocus={(event) => {
              // Back to the Delete button, or to the heading when its image is gone.
              event.preventDefault();
              const target = opener.current?.isConnected ? opener.current : heading.current;
              target?.focus();
            }}
          >
            <DialogTitle className="font-display text-heritage pr-10 text-3xl font-semibold">
              {t("owner.images.deleteTitle")}
            </DialogTitle>
            <DialogDescription className="text-ink mt-3">
              {t("owner.images.deleteText", { number: deleting.number })}
            </DialogDescription>
            <div className="mx-auto mt-5 max-w-56">
              <ResponsiveImage
                image={deleting.image}
                alt=""
                sizes="224px"
                className="aspect-[4/3] w-full rounded-sm object-cover"
              />
            </div>
            <div className="mt-6 flex flex-wrap justify-end gap-3">
              <DialogClose asChild>
                <Button type="button" variant="ghost" disabled={isDeleteBusy}>
                  {t("owner.common.cancel")}
                </Button>
              </DialogClose>
              <button
                type="button"
                className={buttonVariants({ variant: "destructive" })}
                disabled={isDeleteBusy}
                onClick={() => void remove(deleting.image)}
                data-testid="confirm-delete"
              >
                <Trash2 aria-hidden className="size-4" />
                {isDeleteBusy ? t("owner.images.deleting") : t("owner.images.deleteConfirm")}
              </button>
            </div>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}

/** One image: the whole picture is the toggle; an upload also has its Delete button. */
function ImageTile({
  image,
  number,
  total,
  rank,
  onToggle,
  onDelete,
}: {
  image: OwnerImage;
  number: number;
  total: number;
  rank: number | null;
  onToggle: () => void;
  onDelete: (event: React.MouseEvent<HTMLButtonElement>) => void;
}) {
  const { t, i18n } = useTranslation();
  const isSelected = rank !== null;
  const format = new Intl.NumberFormat(i18n.language);
  return (
    <li className="flex flex-col gap-2" data-image-key={image.key} data-selected={isSelected}>
      <button
        type="button"
        aria-pressed={isSelected}
        onClick={onToggle}
        className={cn(
          "group bg-ivory focus-visible:outline-gold relative block overflow-hidden rounded-sm ring-offset-2 transition focus-visible:outline-3 focus-visible:outline-offset-3",
          isSelected ? "ring-heritage ring-4" : "ring-1 ring-stone-300 hover:ring-stone-500",
        )}
      >
        <span className="sr-only">
          {isSelected
            ? t("owner.images.tileSelected", {
                number: format.format(number),
                total: format.format(total),
                rank: format.format(rank),
              })
            : t("owner.images.tile", {
                number: format.format(number),
                total: format.format(total),
              })}
        </span>
        <ResponsiveImage
          image={image}
          alt=""
          sizes="(min-width: 1280px) 300px, (min-width: 1024px) 24vw, (min-width: 640px) 32vw, 48vw"
          className={cn(
            "aspect-[4/3] w-full object-cover transition",
            !isSelected && "group-hover:opacity-90",
          )}
        />
        {isSelected && (
          <>
            <span
              aria-hidden
              className="bg-heritage text-ivory absolute top-2 left-2 flex size-8 items-center justify-center rounded-full text-sm font-semibold tabular-nums shadow"
              data-testid="image-rank"
            >
              {format.format(rank)}
            </span>
            <span
              aria-hidden
              className="bg-heritage/20 absolute inset-0 flex items-center justify-center"
            >
              <span className="bg-paper text-heritage flex size-10 items-center justify-center rounded-full shadow">
                <Check className="size-6" strokeWidth={3} />
              </span>
            </span>
          </>
        )}
      </button>
      {image.uploaded && (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="border-gold/50 text-ink rounded-full border px-2 py-0.5 text-xs">
            {t("owner.images.uploadedBadge")}
          </span>
          <button
            type="button"
            className={buttonVariants({ variant: "destructiveGhost", size: "sm" })}
            onClick={onDelete}
          >
            <Trash2 aria-hidden className="size-4" />
            {t("owner.images.delete")}
            <span className="sr-only">
              {" "}
              {t("owner.images.tile", {
                number: format.format(number),
                total: format.format(total),
              })}
            </span>
          </button>
        </div>
      )}
    </li>
  );
}
