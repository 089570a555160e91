import { Box, Flex } from "@mantine/core";
import { Suspense } from "react";
import { Outlet } from "react-router";
import { AdminHeader } from "../../components/admin-header";
import { AdminNav } from "../../components/admin-nav";
import { PageLoader } from "../../components/page-loader";

export function AdminLayout() {
  return (
    <Box mih="100vh">
      <AdminHeader />
      {/* Phones: the navigation sits above the page instead of taking half the width. */}
      <Flex direction={{ base: "column", sm: "row" }} align={{ base: "stretch", sm: "flex-start" }}>
        <AdminNav />
        <Box component="main" p="md" style={{ flex: 1, minWidth: 0 }}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Box>
      </Flex>
    </Box>
  );
}
