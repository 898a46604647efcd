import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "./cn.ts";

export const alertVariants = cva("rounded-sm border border-l-4 px-4 py-3 text-sm", {
  variants: {
    variant: {
      /** Something failed: sign-in refused, a request that did not go through. */
      error: "border-burgundy/50 text-burgundy bg-red-50",
      /** Something to correct or know: a filter left out, a conflict. */
      warning: "border-orange-300 border-l-orange-500 bg-orange-50 text-orange-950",
    },
  },
  defaultVariants: { variant: "error" },
});

/**
 * The box that tells what went wrong, announced when it appears (`role="alert"`). Its first
 * line is the `AlertTitle`; details follow as children.
 */
export function Alert({
  className,
  variant,
  ...props
}: React.ComponentProps<"div"> & VariantProps<typeof alertVariants>) {
  return (
    <div
      role="alert"
      data-slot="alert"
      className={cn(alertVariants({ variant }), className)}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: React.ComponentProps<"p">) {
  return <p data-slot="alert-title" className={cn("font-semibold", className)} {...props} />;
}

/** A list of messages under the title. */
export function AlertList({ items, className }: { items: readonly string[]; className?: string }) {
  return (
    <ul data-slot="alert-list" className={cn("mt-1 list-disc pl-5", className)}>
      {[...new Set(items)].map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
