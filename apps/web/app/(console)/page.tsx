"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { lastPageOrLanding } from "@/lib/desk/last-page";

// Next requires pages as default exports. "/" (the installed app's start page) returns the person
// to the page they last had open on this device; the shell has set whose desk it is by now.
export default function DeskReturnRoute() {
  const router = useRouter();
  useEffect(() => router.replace(lastPageOrLanding()), [router]);
  return null;
}
