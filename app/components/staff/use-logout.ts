import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "#app/hooks/use-toast.ts";
import { logoutStaff } from "#domain/staff/staff-auth.contract.ts";
import { callApi } from "#app/api-client.ts";

/**
 * Logout: the server ends the session, then 'Logged out' and the sign-in page;
 * on failure 'Logout failed' and the page stays. The sign-in page is a fresh navigation, so
 * nothing of the staff area's data stays in the router.
 */
export function useLogout() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const logout = async () => {
    if (pending) return;
    setPending(true);
    const answer = await callApi(logoutStaff, {}, { language: i18n.language });
    setPending(false);
    if (!answer.ok) {
      toast({
        variant: "destructive",
        title: t("staff.shell.logoutFailed"),
        description: answer.message ?? undefined,
      });
      return;
    }
    toast({ title: t("staff.shell.loggedOutTitle"), description: t("staff.shell.loggedOutText") });
    await navigate("/admin/login", { replace: true });
  };
  return { logout, pending };
}
