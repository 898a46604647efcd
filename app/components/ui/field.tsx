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
