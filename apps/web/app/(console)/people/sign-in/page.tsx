import { SignInSetupPage } from "@/components/identity/sign-in-setup-page";

// Next requires pages as default exports.
export default function SignInSetupRoute() {
  return <SignInSetupPage />;
}
