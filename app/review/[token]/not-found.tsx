/** The one answer for wrong, expired and revoked review links: nothing tells them apart. */
export default function ReviewLinkNotFound() {
  return (
    <main className="mx-auto max-w-sm px-4 py-16 text-center">
      <h1 className="text-xl font-semibold text-slate-900">This review link is not available</h1>
      <p className="mt-2 text-sm text-slate-600">Ask the person who shared it for a new link.</p>
    </main>
  );
}
