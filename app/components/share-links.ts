export const SHARE_NETWORKS = ["x", "facebook", "linkedin", "whatsapp"] as const;
export type ShareNetwork = (typeof SHARE_NETWORKS)[number];

export interface ShareContent {
  title: string;
  description: string;
  url: string;
}

/** The share address of each network for a page's title, description and URL. */
export function shareUrl(network: ShareNetwork, { title, description, url }: ShareContent): string {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  switch (network) {
    case "x":
      return `https://x.com/intent/tweet?${q({ text: `${title}\n${description}`, url })}`;
    case "facebook":
      return `https://www.facebook.com/sharer/sharer.php?${q({ u: url, quote: `${title}\n${description}` })}`;
    case "linkedin":
      return `https://www.linkedin.com/shareArticle?${q({ mini: "true", url, title, summary: description })}`;
    case "whatsapp":
      return `https://wa.me/?${q({ text: `${title}\n${description}\n${url}` })}`;
  }
}

/** Share pop-ups are 600×400, centred on the current window. */
export const SHARE_POPUP = { width: 600, height: 400 } as const;

export function popupFeatures(
  screenLeft: number,
  screenTop: number,
  outerWidth: number,
  outerHeight: number,
) {
  const left = Math.round(screenLeft + (outerWidth - SHARE_POPUP.width) / 2);
  const top = Math.round(screenTop + (outerHeight - SHARE_POPUP.height) / 2);
  return `popup=yes,width=${SHARE_POPUP.width},height=${SHARE_POPUP.height},left=${left},top=${top}`;
}
