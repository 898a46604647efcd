import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "#app/hooks/use-toast.ts";
import { ownerLogout } from "#domain/owners/owners.contract.ts";
import { callApi } from "#app/api-client.ts";

/**
 * The owner's Logout: the server ends the session, then the home page; on
 * failure 'Failed to logout' and the page stays.
 */
export function useOwnerLogout() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  const logout = async () => {
    if (isPending) return;
    setPending(true);
    const answer = await callApi(ownerLogout, {}, { language: i18n.language });
    setPending(false);
    if (!answer.ok) {
      toast({
        variant: "destructive",
        title: t("owner.dashboard.logoutFailed"),
        description: answer.message ?? undefined,
      });
      return;
    }
    await navigate("/", { replace: true });
  };
  return { logout, isPending };
}
