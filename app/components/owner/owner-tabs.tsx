import { useId, useRef } from "react";
import { cn } from "../ui/cn.ts";

export interface TabItem<Id extends string> {
  id: Id;
  label: string;
  panel: React.ReactNode;
}

/**
 * Tabs as the ARIA pattern has them: one tab stop, arrows (and Home/End) move between tabs and
 * open them, each panel labelled by its tab. Hidden panels stay mounted, so an unsaved
 * selection or an open editor survives a look at the other tab.
 */
export function OwnerTabs<Id extends string>({
  label,
  tabs,
  active,
  onChange,
}: {
  label: string;
  tabs: readonly TabItem<Id>[];
  active: Id;
  onChange: (id: Id) => void;
}) {
  const base = useId();
  const buttons = useRef(new Map<Id, HTMLButtonElement>());
  const tabId = (id: Id) => `${base}-tab-${id}`;
  const panelId = (id: Id) => `${base}-panel-${id}`;

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((tab) => tab.id === active);
    const last = tabs.length - 1;
    const target =
      event.key === "ArrowRight"
        ? index === last
          ? 0
          : index + 1
        : event.key === "ArrowLeft"
          ? index === 0
            ? last
            : index - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (target === null) return;
    event.preventDefault();
    const next = tabs[target];
    if (!next) return;
    onChange(next.id);
    buttons.current.get(next.id)?.focus();
  };

  return (
    <div>
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={onKeyDown}
        className="border-gold/40 flex gap-1 overflow-x-auto border-b"
      >
        {tabs.map((tab) => {
          const selected = tab.id === active;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) buttons.current.set(tab.id, element);
                else buttons.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-selected={selected}
              aria-controls={panelId(tab.id)}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(tab.id)}
              data-testid={`tab-${tab.id}`}
              className={cn(
                "-mb-px min-h-11 border-b-2 px-5 py-2 text-base font-medium whitespace-nowrap transition-colors",
                selected
                  ? "border-heritage text-heritage"
                  : "text-muted hover:text-ink border-transparent hover:border-stone-300",
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {tabs.map((tab) => (
        <div
          key={tab.id}
          role="tabpanel"
          id={panelId(tab.id)}
          aria-labelledby={tabId(tab.id)}
          hidden={tab.id !== active}
          tabIndex={0}
          className="focus-visible:outline-gold pt-8 focus-visible:outline-2 focus-visible:outline-offset-4"
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}
