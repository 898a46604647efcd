import { cn } from "./cn.ts";

/**
 * A block that scrolls sideways on a narrow screen (a wide table): a named region that takes
 * the keyboard focus, so it can be scrolled without a pointer (WCAG 2.1.1; axe's
 * scrollable-region-focusable). `label` (or `aria-labelledby`) names it for screen readers,
 * usually after the table's caption.
 */
export function ScrollRegion({
  label,
  className,
  ...props
}: React.ComponentProps<"div"> &
  ({ label: string } | { label?: undefined; "aria-labelledby": string })) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cn(
        "focus-visible:outline-gold overflow-x-auto focus-visible:outline-2",
        className,
      )}
      {...props}
    />
  );
}
