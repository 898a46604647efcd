/** The title block every content page opens with. */
export function PageHeader({ title, description }: { title: string; description?: string }) {
  return (
    <header className="max-w-3xl">
      <h1 className="text-heritage text-5xl font-semibold sm:text-6xl">{title}</h1>
      <div aria-hidden className="bg-gold mt-5 h-px w-24" />
      {description && <p className="text-muted mt-5 text-lg leading-relaxed">{description}</p>}
    </header>
  );
}

/** The frame of a content page: width, padding and rhythm. */
export function PageFrame({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:py-16">{children}</div>;
}
