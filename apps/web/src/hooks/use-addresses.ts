// The console's and the control plane's public addresses (app/api/addresses), fetched once per
// tab. Until they arrive the pages show a placeholder rather than an address that may be wrong.
import { useQuery } from "@tanstack/react-query";
import type { ConsoleAddresses } from "../lib/addresses";
import { CONSOLE_ADDRESSES_PATH } from "../lib/api-paths";

const PENDING = "…";

async function fetchAddresses(): Promise<ConsoleAddresses> {
  const response = await fetch(CONSOLE_ADDRESSES_PATH, { cache: "no-store" });
  if (!response.ok) throw new Error(`${CONSOLE_ADDRESSES_PATH} answered ${response.status}`);
  return (await response.json()) as ConsoleAddresses;
}

export function useAddresses(): ConsoleAddresses {
  const addresses = useQuery({
    queryKey: ["console-addresses"],
    queryFn: fetchAddresses,
    staleTime: Infinity,
  });
  return addresses.data ?? { consoleUrl: PENDING, apiUrl: PENDING };
}
