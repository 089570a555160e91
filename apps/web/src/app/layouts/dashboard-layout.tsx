import { Box } from "@mantine/core";
import { Suspense, useState } from "react";
import { Outlet, useOutletContext } from "react-router";
import { GeneralHeader } from "../../components/general-header";
import { PageLoader } from "../../components/page-loader";
import { DemoSchoolLink } from "../demo-school-link";

export interface DashboardOutletContext {
  search: string;
}

/** The header's search text, for the dashboard pages below this layout. */
export function useDashboardSearch(): string {
  return useOutletContext<DashboardOutletContext | undefined>()?.search ?? "";
}

export function DashboardLayout() {
  const [search, setSearch] = useState("");
  return (
    <Box mih="100vh">
      <GeneralHeader search={search} onSearchChange={setSearch} actions={<DemoSchoolLink />} />
      <Box component="main" p="md">
        <Suspense fallback={<PageLoader />}>
          <Outlet context={{ search } satisfies DashboardOutletContext} />
        </Suspense>
      </Box>
    </Box>
  );
}
