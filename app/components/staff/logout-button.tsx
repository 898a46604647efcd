import { useTranslation } from "react-i18next";
import { LogOut } from "lucide-react";
import { Button, type ButtonVariants } from "../ui/button.tsx";
import { useLogout } from "./use-logout.ts";

/** The Logout button of the staff header and of the 'Access Denied' view. */
export function LogoutButton({ variant = "onDark" }: { variant?: ButtonVariants["variant"] }) {
  const { t } = useTranslation();
  const { logout, pending } = useLogout();
  return (
    <Button
      type="button"
      size="sm"
      variant={variant}
      onClick={() => void logout()}
      disabled={pending}
      data-testid="logout"
    >
      <LogOut aria-hidden className="size-4" />
      {pending ? t("staff.shell.loggingOut") : t("staff.shell.logout")}
    </Button>
  );
}
