import { McpPage } from "@/components/mcp/mcp-page";

// Next requires pages as default exports.
export default function McpRoute() {
  return <McpPage />;
}
