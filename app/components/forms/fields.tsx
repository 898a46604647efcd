import { useId } from "react";
import { useFormContext, useFormState } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { cn } from "../ui/cn.ts";

/**
 * Form fields bound to the surrounding react-hook-form context. Errors are translation keys
 * (from the shared zod schemas); each field shows its own, wired with aria-invalid and
 * aria-describedby, and carries `data-field` so the page can find the first invalid one.
 */

export const inputClass =
  "border-stone-300 bg-paper text-ink focus-visible:outline-gold aria-invalid:border-orange-600 block w-full rounded-sm border px-3 py-2.5 text-base shadow-xs focus-visible:outline-2 focus-visible:outline-offset-1 disabled:opacity-60";

export function fieldId(name: string) {
  return `field-${name.replaceAll(".", "-")}`;
}

/**
 * A field's value as the form holds it, written into the HTML as the control's default: the
 * server's page shows the form's defaults (a guest count of 1, the chosen option) before the
 * form hydrates, and the fields react-hook-form registers then hold the same values.
 */
function useFormValue(name: string): unknown {
  return useFormContext().getValues(name);
}

function asDefaultValue(value: unknown): string | undefined {
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

function useFieldError(name: string): string | undefined {
  const { errors } = useFormState({ name });
  const error = errors[name];
  return typeof error?.message === "string" ? error.message : undefined;
}

interface FieldFrameProps {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  className?: string;
  children: (props: {
    id: string;
    "aria-invalid": boolean;
    "aria-describedby"?: string;
    "aria-required"?: boolean;
  }) => React.ReactNode;
}

/** Label, control, hint and error of one field. */
export function FieldFrame({ name, label, hint, required, className, children }: FieldFrameProps) {
  const { t } = useTranslation();
  const error = useFieldError(name);
  const id = fieldId(name);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("flex flex-col gap-1.5", className)} data-field={name}>
      <label htmlFor={id} className="text-ink text-sm font-medium">
        {label}
        {required && <RequiredMark />}
      </label>
      {children({
        id,
        "aria-invalid": Boolean(error),
        "aria-describedby": describedBy,
        "aria-required": required || undefined,
      })}
      {hint && (
        <p id={hintId} className="text-muted text-sm">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-orange-800">
          {t(error)}
        </p>
      )}
    </div>
  );
}

type InputProps = Omit<React.ComponentProps<"input">, "name"> & {
  name: string;
  label: string;
  hint?: string;
};

export function TextField({ name, label, hint, required, className, ...input }: InputProps) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  return (
    <FieldFrame name={name} label={label} hint={hint} required={required} className={className}>
      {(aria) => (
        <input
          {...input}
          {...aria}
          {...register(name)}
          defaultValue={asDefaultValue(value)}
          className={inputClass}
        />
      )}
    </FieldFrame>
  );
}

export function TextAreaField({
  name,
  label,
  hint,
  required,
  className,
  ...textarea
}: Omit<React.ComponentProps<"textarea">, "name"> & {
  name: string;
  label: string;
  hint?: string;
}) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  return (
    <FieldFrame name={name} label={label} hint={hint} required={required} className={className}>
      {(aria) => (
        <textarea
          {...textarea}
          {...aria}
          {...register(name)}
          defaultValue={asDefaultValue(value)}
          className={cn(inputClass, "min-h-[150px] resize-y")}
        />
      )}
    </FieldFrame>
  );
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  name,
  label,
  hint,
  required,
  options,
  placeholder,
  className,
}: {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  options: Option[];
  placeholder?: string;
  className?: string;
}) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  const { t } = useTranslation();
  return (
    <FieldFrame name={name} label={label} hint={hint} required={required} className={className}>
      {(aria) => (
        <select
          {...aria}
          {...register(name)}
          defaultValue={asDefaultValue(value)}
          className={inputClass}
        >
          {placeholder !== undefined && (
            <option value="">{placeholder || t("forms.choose")}</option>
          )}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/**
 * A whole number that falls back to its minimum when left empty: the box may be
 * empty while typing; the form's value is never empty, and the box shows `min` again on blur.
 */
export function NumberField({
  name,
  label,
  hint,
  required,
  min,
  max,
  className,
}: {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  min: number;
  max?: number;
  className?: string;
}) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  const field = register(name, { setValueAs: (raw: unknown) => wholeNumberOr(raw, min) });
  return (
    <FieldFrame name={name} label={label} hint={hint} required={required} className={className}>
      {(aria) => (
        <input
          {...aria}
          {...field}
          defaultValue={asDefaultValue(value)}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          step={1}
          className={inputClass}
          onBlur={(event) => {
            if (Number.isNaN(Number.parseInt(event.target.value, 10)))
              event.target.value = String(min);
            void field.onBlur(event);
          }}
        />
      )}
    </FieldFrame>
  );
}

/** The whole number typed in a box (a number already is one), or `fallback` when there is none. */
function wholeNumberOr(raw: unknown, fallback: number): number {
  if (typeof raw === "number") return Number.isNaN(raw) ? fallback : Math.trunc(raw);
  const parsed = Number.parseInt(String(raw ?? ""), 10);
  return Number.isNaN(parsed) ? fallback : parsed;
}

/** A calendar date; days outside [min, max] are disabled in the picker. */
export function DateField({
  name,
  label,
  hint,
  required,
  min,
  max,
  className,
}: {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  min?: string;
  max?: string;
  className?: string;
}) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  return (
    <FieldFrame name={name} label={label} hint={hint} required={required} className={className}>
      {(aria) => (
        <input
          {...aria}
          {...register(name)}
          defaultValue={asDefaultValue(value)}
          type="date"
          min={min}
          max={max}
          className={inputClass}
        />
      )}
    </FieldFrame>
  );
}

function RequiredMark() {
  return (
    <span className="text-burgundy" aria-hidden>
      {" "}
      *
    </span>
  );
}

/** A checkbox with its label beside it. */
function Checkbox({
  id,
  label,
  ...input
}: Omit<React.ComponentProps<"input">, "type"> & { id: string; label: string }) {
  return (
    <div className="flex items-start gap-3">
      <input
        {...input}
        id={id}
        type="checkbox"
        className="accent-heritage mt-0.5 size-5 shrink-0"
      />
      <label htmlFor={id} className="text-ink text-sm">
        {label}
      </label>
    </div>
  );
}

/** The options of one fixed list, labelled from `{group}.{key}` in the page's language. */
export function useOptionList() {
  const { t } = useTranslation();
  return (group: string, keys: readonly string[]): Option[] =>
    keys.map((value) => ({ value, label: t(`${group}.${value}`) }));
}

/** A yes/no checkbox with its label beside it. */
export function CheckboxField({ name, label }: { name: string; label: string }) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  const id = fieldId(name);
  return (
    <div data-field={name}>
      <Checkbox id={id} label={label} {...register(name)} defaultChecked={value === true} />
    </div>
  );
}

/** Several choices of one list, as a fieldset of checkboxes (a grid of `columns`). */
export function CheckboxGroupField({
  name,
  label,
  options,
  required,
  columns = 2,
}: {
  name: string;
  label: string;
  options: Option[];
  required?: boolean;
  columns?: 2 | 3 | 4;
}) {
  const { register } = useFormContext();
  const value = useFormValue(name);
  const checked = Array.isArray(value) ? (value as unknown[]) : [];
  const { t } = useTranslation();
  const error = useFieldError(name);
  const groupId = useId();
  const errorId = `${groupId}-error`;
  return (
    <fieldset
      data-field={name}
      aria-invalid={Boolean(error)}
      aria-describedby={error ? errorId : undefined}
      className="flex flex-col gap-2"
    >
      <legend className="text-ink mb-2 text-sm font-medium">
        {label}
        {required && <RequiredMark />}
      </legend>
      <div
        className={cn(
          "grid gap-x-6 gap-y-2.5",
          columns === 2 && "grid-cols-1 sm:grid-cols-2",
          columns === 3 && "grid-cols-1 sm:grid-cols-2 lg:grid-cols-3",
          columns === 4 && "grid-cols-2 lg:grid-cols-4",
        )}
      >
        {options.map((option, index) => {
          const id = index === 0 ? fieldId(name) : `${fieldId(name)}-${option.value}`;
          return (
            <Checkbox
              key={option.value}
              id={id}
              label={option.label}
              value={option.value}
              {...register(name)}
              defaultChecked={checked.includes(option.value)}
            />
          );
        })}
      </div>
      {error && (
        <p id={errorId} className="text-sm font-medium text-orange-800">
          {t(error)}
        </p>
      )}
    </fieldset>
  );
}

/** A titled group of fields: one section of a form. */
export function FormSection({ title, children }: { title: string; children: React.ReactNode }) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="border-gold/30 border-t pt-8 first:border-t-0 first:pt-0"
    >
      <h2 id={id} className="font-display text-heritage mb-6 text-3xl font-semibold">
        {title}
      </h2>
      <div className="grid gap-6 sm:grid-cols-2">{children}</div>
    </section>
  );
}
