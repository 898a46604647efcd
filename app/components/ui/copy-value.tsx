import { Copy } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "./button.tsx";
import { CONTROL_CLASS, Field } from "./field.tsx";

/**
 * A value to copy (a secret shown once, an address): read-only, selected on focus, with a Copy
 * button that says whether it copied. Without a clipboard (an insecure origin, a refused
 * permission) the value is selected instead, for the keyboard's copy.
 */
export function CopyValue({
  label,
  value,
  copyLabel,
  copiedLabel,
  selectLabel,
  testId,
}: {
  label: string;
  value: string;
  copyLabel: string;
  copiedLabel: string;
  /** Said when the clipboard refused and the value was selected instead. */
  selectLabel: string;
  testId?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      input.current?.select();
      setState("failed");
    }
  }
  return (
    <div data-slot="copy-value" className="grid gap-2">
      <Field label={label}>
        {(control) => (
          <input
            {...control}
            ref={input}
            readOnly
            value={value}
            data-testid={testId}
            onFocus={(event) => event.currentTarget.select()}
            className={`${CONTROL_CLASS} font-mono`}
          />
        )}
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
          <Copy aria-hidden className="size-4" />
          {copyLabel}
        </Button>
        <p role="status" className="text-muted text-sm">
          {state === "copied" ? copiedLabel : state === "failed" ? selectLabel : ""}
        </p>
      </div>
    </div>
  );
}
