import { Box } from "@mantine/core";
import { Suspense } from "react";
import { Outlet, useOutletContext, useSearchParams } from "react-router";
import { isAdminRole } from "@tally/contract";
import { AdminNav } from "../../components/admin-nav";
import { GeneralHeader } from "../../components/general-header";
import { useCurrentUser } from "../../lib/auth-store";
import { PageLoader } from "../../components/page-loader";
import { DemoSchoolLink } from "../demo-school-link";

export interface DashboardOutletContext {
  search: string;
}

/** The header's search text, for the dashboard pages below this layout. */
export function useDashboardSearch(): string {
  return useOutletContext<DashboardOutletContext | undefined>()?.search ?? "";
}

/**
 * The header search lives in the URL (`?q=`) beside the dashboard's filters, so a search
 * survives a reload and can be bookmarked or sent. Typing replaces the history entry rather
 * than adding one per letter. The Needs attention list below this layout reads it too.
 */
export function DashboardLayout() {
  const user = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const search = params.get("q") ?? "";
  const setSearch = (value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set("q", value);
        else next.delete("q");
        // A new search starts at its first page (the Needs attention list keeps its page here).
        next.delete("page");
        return next;
      },
      { replace: true },
    );
  return (
    <Box mih="100vh">
      <GeneralHeader search={search} onSearchChange={setSearch} actions={<DemoSchoolLink />} />
      {/* Admins get the admin navigation here too, so the weekly import is one click away (issue 29). */}
      {user && isAdminRole(user.role) ? <AdminNav orientation="horizontal" /> : null}
      <Box component="main" p="md">
        <Suspense fallback={<PageLoader />}>
          <Outlet context={{ search } satisfies DashboardOutletContext} />
        </Suspense>
      </Box>
    </Box>
  );
}
