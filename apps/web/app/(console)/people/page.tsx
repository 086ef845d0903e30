import { PeoplePage } from "@/components/identity/people-page";

// Next requires pages as default exports.
export default function PeopleRoute() {
  return <PeoplePage />;
}
