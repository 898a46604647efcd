import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useRevalidator } from "react-router";
import { Pencil } from "lucide-react";
import {
  CURRENCIES,
  type EditableField,
  FIELD_KINDS,
  fieldTemplate,
  isEditableField,
  isTranslatedField,
  OWNER_LIMITS,
  parseFieldValue,
} from "#domain/owners/owner-fields.ts";
import type { OwnerPropertyDetails } from "#domain/owners/owner-property.ts";
import { LANGUAGE_NAMES, LANGUAGE_TAGS, isLanguage } from "#i18n/config.ts";
import { toast } from "#app/hooks/use-toast.ts";
import { inputClass } from "../forms/fields.tsx";
import { Button } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";
import { fieldDisplay, type OverviewField } from "./field-display.ts";
import { FieldValue } from "./field-value.tsx";
import { callApi } from "#app/api-client.ts";
import { updateOwnerProperty } from "#domain/owners/owners.contract.ts";
import { translateIssue } from "./owner-messages.ts";

/** The help under an editor: how to write the field, with its keys for objects. */
function useFieldHelp(field: EditableField): string {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  switch (field) {
    case "starting_price":
    case "price_range":
      return t(`owner.help.${field}`, { currencies: CURRENCIES.join(", ") });
    case "coordinates":
    case "website_info":
    case "url":
    case "phone":
    case "postal_code":
      return t(`owner.help.${field}`);
    case "facilities":
    case "activities":
    case "services": {
      const limits = OWNER_LIMITS[field];
      return t("owner.help.list", {
        min: number.format(limits.min),
        max: number.format(limits.max),
      });
    }
    case "guest_capacity":
    case "beds": {
      const limits = field === "beds" ? OWNER_LIMITS.beds : OWNER_LIMITS.guests;
      return t("owner.help.number", {
        min: number.format(limits.min),
        max: number.format(limits.max),
      });
    }
    case "name":
    case "location":
    case "description":
      return t("owner.help.length", {
        min: number.format(OWNER_LIMITS[field].min),
        max: number.format(OWNER_LIMITS[field].max),
      });
    case "history":
      return t("owner.help.optionalLength", {
        min: number.format(OWNER_LIMITS.history.min),
        max: number.format(OWNER_LIMITS.history.max),
      });
    case "accommodation_description":
    case "address":
    case "city":
      return t("owner.help.optional");
  }
}

/** Languages that fell behind for `field`, each a link to edit it there. */
function StaleNote({ field, details }: { field: string; details: OwnerPropertyDetails }) {
  const { t } = useTranslation();
  const location = useLocation();
  const languages = [
    ...new Set(details.stale.filter((entry) => entry.field === field).map((entry) => entry.lang)),
  ].filter(isLanguage);
  if (languages.length === 0) return null;
  const hrefFor = (language: string) => {
    const params = new URLSearchParams(location.search);
    params.set("content", language);
    params.set("tab", "overview");
    return `${location.pathname}?${params}`;
  };
  return (
    <p className="text-ink rounded-sm border border-amber-700/40 bg-amber-50 px-3 py-2 text-sm">
      {t("owner.overview.outOfDate")}{" "}
      {languages.map((language, index) => (
        <span key={language}>
          {index > 0 && ", "}
          <Link
            to={hrefFor(language)}
            preventScrollReset
            lang={LANGUAGE_TAGS[language]}
            className="text-heritage font-medium underline underline-offset-2"
          >
            {LANGUAGE_NAMES[language]}
          </Link>
        </span>
      ))}
    </p>
  );
}

/**
 * One field of the Overview tab: its value, and for an editable field Edit → an editor filled
 * with its current text (or its keys' template), Save and Cancel. Save checks the value with
 * the server's own schema first, so most mistakes are shown before anything is sent.
 */
export function FieldRow({
  field,
  details,
  onShowImages,
}: {
  field: OverviewField;
  details: OwnerPropertyDetails;
  onShowImages: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const label = t(`owner.fields.${field}`);
  const editable = isEditableField(field) ? field : null;
  const isTranslated = isTranslatedField(field);
  return (
    <div className="grid gap-2 py-5 first:pt-0 last:pb-0" data-field={field}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h4
          id={`${id}-label`}
          className="text-ink font-sans text-sm font-semibold tracking-wide uppercase"
        >
          {label}
        </h4>
        {isTranslated && (
          <span
            className="border-heritage/40 text-heritage rounded-full border px-2 py-0.5 text-xs"
            data-testid="language-badge"
          >
            {t("owner.overview.perLanguage", { language: LANGUAGE_NAMES[details.language] })}
          </span>
        )}
        {!editable && (
          <span className="text-muted rounded-full border border-stone-300 px-2 py-0.5 text-xs">
            {t("owner.overview.readOnly")}
          </span>
        )}
      </div>
      {isTranslated && <StaleNote field={field} details={details} />}
      {editable ? (
        <FieldEditor
          field={editable}
          label={label}
          labelId={`${id}-label`}
          details={details}
          onShowImages={onShowImages}
        />
      ) : (
        <FieldValue
          display={fieldDisplay(details, field)}
          details={details}
          onShowImages={onShowImages}
        />
      )}
    </div>
  );
}

function FieldEditor({
  field,
  label,
  labelId,
  details,
  onShowImages,
}: {
  field: EditableField;
  label: string;
  labelId: string;
  details: OwnerPropertyDetails;
  onShowImages: () => void;
}) {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const control = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const focusEditButton = useRef(false);
  const help = useFieldHelp(field);
  const controlId = useId();
  const helpId = `${controlId}-help`;
  const errorId = `${controlId}-error`;
  const kind = FIELD_KINDS[field];
  const isEditing = draft !== null;

  // Back to Edit once the editor has closed (Save or Cancel), so focus is never lost.
  useEffect(() => {
    if (!isEditing && focusEditButton.current) {
      focusEditButton.current = false;
      editButton.current?.focus();
    }
  }, [isEditing]);

  const close = () => {
    focusEditButton.current = true;
    setDraft(null);
    setError(null);
  };

  const showError = (message: string) => {
    setError(message);
    control.current?.focus();
  };

  const save = async () => {
    if (draft === null) return;
    const parsed = parseFieldValue(field, draft);
    if (!parsed.ok) return showError(translateIssue(t, i18n.language, parsed.issue));
    setSaving(true);
    setError(null);
    const answer = await callApi(
      updateOwnerProperty,
      {
        query: {},
        body: {
          field,
          value: kind === "list" ? draft.split("\n") : draft,
          lang: details.language,
          propertyId: details.id,
        },
      },
      { language: i18n.language },
    );
    if (!answer.ok) {
      setSaving(false);
      showError(
        answer.errors.find((issue) => issue.path === "value")?.message ??
          answer.message ??
          t("owner.overview.saveFailed"),
      );
      toast({
        variant: "destructive",
        title: t("forms.toast.errorTitle"),
        description: t("owner.overview.saveFailed"),
      });
      return;
    }
    toast({ title: t("owner.overview.savedTitle"), description: t("owner.overview.savedText") });
    // The value shown next is the server's, read again with the rest of the record.
    await revalidator.revalidate();
    setSaving(false);
    close();
  };

  if (!isEditing)
    return (
      <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
        <div className="text-ink min-w-0 flex-1 basis-64">
          <FieldValue
            display={fieldDisplay(details, field)}
            details={details}
            onShowImages={onShowImages}
          />
        </div>
        <Button
          ref={editButton}
          type="button"
          size="sm"
          variant="outline"
          onClick={() => setDraft(details.fields[field] || fieldTemplate(field))}
          data-testid={`edit-${field}`}
        >
          <Pencil aria-hidden className="size-4" />
          {t("owner.overview.edit")}
          <span className="sr-only"> {label}</span>
        </Button>
      </div>
    );

  const describedBy = [helpId, error ? errorId : null].filter(Boolean).join(" ");
  const common = {
    id: controlId,
    value: draft,
    "aria-labelledby": labelId,
    "aria-describedby": describedBy,
    "aria-invalid": error ? true : undefined,
    disabled: isSaving,
    autoFocus: true,
    onChange: (event: React.ChangeEvent<HTMLTextAreaElement | HTMLInputElement>) =>
      setDraft(event.currentTarget.value),
    className: inputClass,
    "data-testid": `editor-${field}`,
  };
  const lines = draft.split("\n").length;
  return (
    <form
      method="post"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      className="grid gap-2"
    >
      {kind === "line" || kind === "number" ? (
        <input
          {...common}
          ref={control}
          type={field === "url" ? "url" : field === "phone" ? "tel" : "text"}
          inputMode={kind === "number" ? "numeric" : undefined}
          autoComplete="off"
        />
      ) : (
        <textarea
          {...common}
          ref={control}
          rows={kind === "paragraph" ? 8 : Math.min(Math.max(lines + 1, 4), 14)}
          className={cn(inputClass, "resize-y", kind === "object" && "font-mono text-sm")}
          spellCheck={kind !== "object"}
        />
      )}
      <p id={helpId} className="text-muted text-sm">
        {help}
      </p>
      {error && (
        <p
          id={errorId}
          className="text-sm font-medium text-orange-800"
          data-testid={`error-${field}`}
        >
          {error}
        </p>
      )}
      <div className="mt-1 flex flex-wrap gap-3">
        <Button type="submit" size="sm" disabled={isSaving} data-testid={`save-${field}`}>
          {isSaving ? t("owner.overview.saving") : t("owner.overview.save")}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={close} disabled={isSaving}>
          {t("owner.overview.cancel")}
        </Button>
      </div>
    </form>
  );
}
