import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentUserId } from "@/lib/dashboard/current";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Start your free trial" };
export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await currentUserId()) redirect("/dashboard");
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold text-slate-900">Create your workspace</h1>
      <p className="mb-6 text-sm text-slate-600">Upload creatives, push them to your ad accounts, keep every ad text beside its creative.</p>
      <SignUpForm />
    </>
  );
}
