import { Box, Flex } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { AdminHeader } from "../../components/admin-header";
import { AdminNav } from "../../components/admin-nav";
import { PageLoader } from "../../components/page-loader";

export function AdminLayout() {
  // Read at once (not after a first paint), so a wide screen never flashes the phone's strip.
  const wide = useMediaQuery("(min-width: 48em)", true, { getInitialValueInEffect: false });
  return (
    <Box mih="100vh">
      <AdminHeader />
      {/* Phones: the navigation is one strip above the page, not a column of seven links before it. */}
      <Flex direction={{ base: "column", sm: "row" }} align={{ base: "stretch", sm: "flex-start" }}>
        <AdminNav orientation={wide ? "vertical" : "horizontal"} />
        <Box component="main" p="md" style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Flex>
    </Box>
  );
}
