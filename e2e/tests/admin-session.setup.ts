// Runs before the specs (the "console" project depends on it): the admin signs in once and the
// session is saved for every spec that does not test signing in itself.
import { test as setup } from "@playwright/test";
import { saveAdminSession } from "./session";

setup("the admin signs in once and the session is saved", async ({ browser }) => {
  await saveAdminSession(browser);
});
