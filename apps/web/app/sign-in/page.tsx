import { Suspense } from "react";
import { SignInForm } from "@/components/sign-in-form";

// Next requires pages as default exports; the form reads ?error= with useSearchParams, which needs
// a Suspense boundary when Next prerenders the route.
export default function SignInPage() {
  return (
    <Suspense>
      <SignInForm />
    </Suspense>
  );
}
