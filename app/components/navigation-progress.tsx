import { useNavigation } from "react-router";

/** A thin bar at the top of the viewport while the next page's data loads. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state !== "loading") return null;
  return (
    <div
      aria-hidden
      data-testid="navigation-progress"
      className="bg-gold fixed inset-x-0 top-0 z-50 h-0.5 origin-left animate-pulse"
    />
  );
}
