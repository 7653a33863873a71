import Link from "next/link";

export default function Home() {
  return (
    <main className="mx-auto flex max-w-2xl flex-col gap-6 px-6 py-24">
      <h1 className="text-4xl font-semibold tracking-tight">Adloom</h1>
      <p className="text-lg text-slate-600">Upload image and video creatives, push them to your ad accounts, and keep every ad text beside its creative.</p>
      <div className="flex gap-4 text-sm">
        <Link className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white" href="/sign-up">
          Start free trial
        </Link>
        <Link className="rounded-md border border-slate-300 px-4 py-2 font-medium" href="/sign-in">
          Sign in
        </Link>
        <Link className="rounded-md bg-slate-900 px-4 py-2 font-medium text-white" href="/docs/openapi.json">
          API reference (OpenAPI)
        </Link>
      </div>
    </main>
  );
}
