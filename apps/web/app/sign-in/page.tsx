import { SignInForm } from "@/components/sign-in-form";

// Next requires pages as default exports.
export default function SignInPage() {
  return <SignInForm />;
}
