import { useId } from "react";
import { cn } from "./cn.ts";

/** The look of a text input, select or textarea of the staff and owner areas. */
export const CONTROL_CLASS =
  "block w-full rounded-sm border border-ink/25 bg-paper px-3 py-2 text-sm text-ink focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-gold aria-invalid:border-orange-600";

/** The ids and ARIA attributes that tie a control to its label, hint and error. */
export interface FieldControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/**
 * A label above its control, an optional hint below and an error under that (brand.md). The
 * control is a render function given its id and ARIA attributes, so the same part serves a
 * plain input, a react-hook-form `register()` spread or a controlled textarea:
 *
 * ```tsx
 * <Field label="Email" hint="…" error={errors.email?.message}>
 *   {(control) => <input {...control} {...register("email")} className={CONTROL_CLASS} />}
 * </Field>
 * ```
 */
export function Field({
  label,
  hint,
  error,
  labelVariant = "default",
  className,
  children,
}: {
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: React.ReactNode;
  /** `compact`: the small capitals of a filter bar. */
  labelVariant?: "default" | "compact";
  className?: string;
  children: (control: FieldControlProps) => React.ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ");
  return (
    <div data-slot="field" className={cn("grid content-start gap-1.5", className)}>
      <label
        htmlFor={id}
        data-slot="field-label"
        className={
          labelVariant === "compact"
            ? "text-muted text-xs font-semibold tracking-[0.08em] uppercase"
            : "text-ink text-sm font-medium"
        }
      >
        {label}
      </label>
      {children({
        id,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(error ? { "aria-invalid": true as const } : {}),
      })}
      {hint && (
        <p id={hintId} data-slot="field-hint" className="text-muted text-xs">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} data-slot="field-error" className="text-sm font-medium text-orange-800">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * A labelled plain-text box (notes, messages, a view's note): a `Field` around a controlled
 * textarea that grows only downwards, with the length limit the server checks too.
 */
export function TextAreaField({
  label,
  hint,
  error,
  value,
  onValueChange,
  rows = 3,
  maxLength,
  name,
}: {
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: React.ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  rows?: number;
  maxLength: number;
  name?: string;
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <textarea
          {...control}
          name={name}
          value={value}
          rows={rows}
          maxLength={maxLength}
          onChange={(event) => onValueChange(event.target.value)}
          className={cn(CONTROL_CLASS, "resize-y")}
        />
      )}
    </Field>
  );
}

/** A labelled, controlled text, email or password box: the one-line sibling of TextAreaField. */
export function InputField({
  label,
  hint,
  error,
  value,
  onChange,
  ...input
}: {
  label: string;
  hint?: string;
  error?: string | null;
  value: string;
  onChange: (value: string) => void;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">) {
  return (
    <Field label={label} hint={hint} error={error ?? undefined}>
      {(control) => (
        <input
          {...control}
          {...input}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={CONTROL_CLASS}
        />
      )}
    </Field>
  );
}
