import { useTranslation } from "react-i18next";
import { Crown } from "lucide-react";
import { cn } from "./ui/cn.ts";

/** Marks an estate reserved for members (the property's `membersOnly` flag). */
export function MembersBadge({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="members-badge"
      className={cn(
        "bg-burgundy text-ivory inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-xs font-semibold tracking-wide",
        className,
      )}
    >
      <Crown aria-hidden className="size-3.5" />
      {t("castles.membersBadge")}
    </span>
  );
}
