import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Share2 } from "lucide-react";
import { toast } from "../hooks/use-toast.ts";
import {
  popupFeatures,
  SHARE_NETWORKS,
  type ShareContent,
  type ShareNetwork,
  shareUrl,
} from "./share-links.ts";
import { Button } from "./ui/button.tsx";

const NETWORK_NAMES: Record<ShareNetwork, string> = {
  x: "X",
  facebook: "Facebook",
  linkedin: "LinkedIn",
  whatsapp: "WhatsApp",
};

const canShareNatively = () =>
  typeof navigator !== "undefined" && typeof navigator.share === "function";

/**
 * Share buttons: each network in a 600×400 pop-up, and the browser's own
 * share sheet where it exists. The page URL is read in the browser, so it is the one the
 * visitor sees.
 */
export function ShareControl({ title, description }: Omit<ShareContent, "url">) {
  const { t } = useTranslation();
  // Known only in the browser: the server renders without the native button.
  const hasNativeShare = useSyncExternalStore(
    () => () => {},
    canShareNatively,
    () => false,
  );

  const failed = () =>
    toast({
      variant: "destructive",
      title: t("share.failedTitle"),
      description: t("share.failedDescription"),
    });

  const openPopup = (network: ShareNetwork) => {
    const content = { title, description, url: window.location.href };
    const popup = window.open(
      shareUrl(network, content),
      `share-${network}`,
      popupFeatures(window.screenX, window.screenY, window.outerWidth, window.outerHeight),
    );
    if (!popup) return failed();
    // The network's page gets no handle on ours.
    popup.opener = null;
    toast({ title: t("share.windowOpened") });
  };

  const shareNatively = async () => {
    try {
      await navigator.share({ title, text: description, url: window.location.href });
      toast({ title: t("share.success") });
    } catch (error) {
      // Closing the share sheet is the visitor's choice, not a failure.
      if ((error as Error).name !== "AbortError") failed();
    }
  };

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={t("share.label")}>
      <span className="text-muted mr-1 text-sm">{t("share.label")}</span>
      {SHARE_NETWORKS.map((network) => (
        <Button
          key={network}
          variant="outline"
          size="sm"
          onClick={() => openPopup(network)}
          aria-label={t("share.on", { network: NETWORK_NAMES[network] })}
          data-network={network}
        >
          {NETWORK_NAMES[network]}
        </Button>
      ))}
      {hasNativeShare && (
        <Button variant="ghost" size="sm" onClick={shareNatively} data-network="native">
          <Share2 aria-hidden className="size-4" />
          {t("share.native")}
        </Button>
      )}
    </div>
  );
}
