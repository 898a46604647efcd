import { cva, type VariantProps } from "class-variance-authority";
import { Link, type LinkProps } from "react-router";
import { cn } from "./cn.ts";

export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-sm font-medium tracking-wide transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold disabled:pointer-events-none disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-heritage text-ivory hover:bg-heritage-light",
        outline: "border border-heritage text-heritage hover:bg-heritage hover:text-ivory",
        light: "bg-ivory text-heritage hover:bg-paper",
        ghost: "text-heritage hover:bg-heritage/5",
        /** Over a dark image or the green of the nav. */
        onDark: "border border-ivory/60 text-ivory hover:bg-white/10",
        /** Burgundy marks an action that removes or undoes something (brand.md). */
        destructive: "bg-burgundy text-ivory hover:bg-burgundy/90",
        /** The quiet form of `destructive`, for a row's action. */
        destructiveGhost: "text-burgundy hover:bg-burgundy/5",
      },
      size: {
        md: "min-h-11 px-5 py-2 text-sm",
        lg: "min-h-12 px-7 py-2.5 text-base",
        sm: "min-h-9 px-3 py-1.5 text-sm",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

export type ButtonVariants = VariantProps<typeof buttonVariants>;

export function Button({
  className,
  variant,
  size,
  ...props
}: React.ComponentProps<"button"> & ButtonVariants) {
  return (
    <button
      data-slot="button"
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}

/** A link that looks like a button. */
export function ButtonLink({ className, variant, size, ...props }: LinkProps & ButtonVariants) {
  return (
    <Link
      data-slot="button"
      className={cn(buttonVariants({ variant, size }), className)}
      {...props}
    />
  );
}
