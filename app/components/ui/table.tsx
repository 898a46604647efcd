import { createContext, useContext } from "react";
import { cva, type VariantProps } from "class-variance-authority";
import { cn } from "./cn.ts";

/**
 * How a table meets a narrow screen:
 * - `scroll`: it scrolls sideways inside its frame (a focusable region: keyboard users can
 *   scroll it too);
 * - `stack`: from 1280 px (`xl`) every column is a column; below, each row is a card, each
 *   cell shows its column's name (`label` of `TableCell`) before its value, and cells marked
 *   `pinned` (status, actions) come first, so they are in view without scrolling sideways.
 */
const tableFrameVariants = cva("border-gold/30 bg-paper rounded-sm", {
  variants: {
    layout: {
      scroll: "focus-visible:outline-gold relative overflow-x-auto border focus-visible:outline-2",
      stack: "max-xl:border-0 max-xl:bg-transparent xl:border",
    },
  },
  defaultVariants: { layout: "scroll" },
});

type Layout = NonNullable<VariantProps<typeof tableFrameVariants>["layout"]>;

/**
 * The table's layout, for its parts: a part without its own `layout` follows the table's, so a
 * `stack` table whose rows forget to say so still becomes cards rather than a table wider than
 * the screen.
 */
const TableLayoutContext = createContext<Layout>("scroll");

export function Table({
  layout = "scroll",
  className,
  frameProps,
  ...props
}: React.ComponentProps<"table"> & {
  layout?: Layout;
  /** The frame's label and the like (`scroll` makes it a focusable region). */
  frameProps?: React.ComponentProps<"div">;
}) {
  return (
    <TableLayoutContext value={layout}>
      <div
        data-slot="table-frame"
        data-layout={layout}
        {...(layout === "scroll" ? { role: "region", tabIndex: 0 } : {})}
        {...frameProps}
        className={cn(tableFrameVariants({ layout }), frameProps?.className)}
      >
        <table
          data-slot="table"
          className={cn(
            "w-full border-collapse text-sm",
            layout === "stack" && "max-xl:block",
            className,
          )}
          {...props}
        />
      </div>
    </TableLayoutContext>
  );
}

export function TableCaption({
  layout: ownLayout,
  className,
  ...props
}: React.ComponentProps<"caption"> & { layout?: Layout }) {
  const inherited = useContext(TableLayoutContext);
  const layout = ownLayout ?? inherited;
  return (
    <caption
      data-slot="table-caption"
      className={cn(
        "text-muted px-3 pt-3 pb-1 text-left text-sm",
        layout === "stack" && "max-xl:block max-xl:px-0 max-xl:pt-0 max-xl:pb-3",
        className,
      )}
      {...props}
    />
  );
}

export function TableHeader({
  layout: ownLayout,
  className,
  ...props
}: React.ComponentProps<"thead"> & { layout?: Layout }) {
  const inherited = useContext(TableLayoutContext);
  const layout = ownLayout ?? inherited;
  return (
    <thead
      data-slot="table-header"
      // Cards name each value themselves: the header row stays for screen readers only.
      className={cn(layout === "stack" && "max-xl:sr-only", className)}
      {...props}
    />
  );
}

export function TableBody({
  layout: ownLayout,
  className,
  ...props
}: React.ComponentProps<"tbody"> & { layout?: Layout }) {
  const inherited = useContext(TableLayoutContext);
  const layout = ownLayout ?? inherited;
  return (
    <tbody
      data-slot="table-body"
      className={cn(layout === "stack" && "max-xl:grid max-xl:gap-3", className)}
      {...props}
    />
  );
}

export function TableRow({
  layout: ownLayout,
  className,
  ...props
}: React.ComponentProps<"tr"> & { layout?: Layout }) {
  const inherited = useContext(TableLayoutContext);
  const layout = ownLayout ?? inherited;
  return (
    <tr
      data-slot="table-row"
      className={cn(
        "hover:bg-ivory/60",
        layout === "stack" &&
          "max-xl:border-gold/30 max-xl:bg-paper max-xl:shadow-card max-xl:grid max-xl:grid-cols-2 max-xl:gap-x-4 max-xl:gap-y-3 max-xl:rounded-sm max-xl:border max-xl:p-4",
        className,
      )}
      {...props}
    />
  );
}

export function TableHead({ className, ...props }: React.ComponentProps<"th">) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        "border-ink/15 text-ink border-b px-1.5 py-3 text-left align-bottom text-xs font-semibold tracking-wide uppercase first:pl-3 last:pr-3",
        className,
      )}
      {...props}
    />
  );
}

const tableCellVariants = cva(
  "border-ink/10 text-ink border-b px-1.5 py-3 text-left align-top first:pl-3 last:pr-3",
  {
    variants: {
      layout: {
        scroll: "",
        stack:
          "max-xl:block max-xl:border-0 max-xl:p-0 max-xl:first:pl-0 max-xl:last:pr-0 max-xl:before:text-muted max-xl:before:block max-xl:before:text-xs max-xl:before:font-semibold max-xl:before:tracking-wide max-xl:before:uppercase max-xl:before:content-[attr(data-label)]",
      },
      pinned: { true: "", false: "" },
    },
    compoundVariants: [{ layout: "stack", pinned: true, class: "max-xl:order-first" }],
    defaultVariants: { layout: "scroll", pinned: false },
  },
);

/**
 * A cell (`as="th"` for a row's header cell). In a `stack` table, `label` names the value on
 * a card and `pinned` puts the cell at the top of its card.
 */
export function TableCell({
  as: Tag = "td",
  layout: ownLayout,
  label,
  pinned = false,
  className,
  ...props
}: React.ComponentProps<"td"> & {
  as?: "td" | "th";
  layout?: Layout;
  label?: string;
  pinned?: boolean;
}) {
  const inherited = useContext(TableLayoutContext);
  const layout = ownLayout ?? inherited;
  return (
    <Tag
      data-slot="table-cell"
      data-label={layout === "stack" ? label : undefined}
      className={cn(tableCellVariants({ layout, pinned }), className)}
      {...props}
    />
  );
}
