import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Adloom", template: "%s · Adloom" },
  description: "Upload creatives, push them to your ad accounts, and manage their copy.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so each gets its own CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
