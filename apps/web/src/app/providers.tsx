import "./first-screen-styles";
// No @mantine/dates styles (the app has no date picker) and the charts' styles come with the
// chart's own lazy code (components/trend-chart.tsx): the render-blocking CSS of /login stays small.
import { MantineProvider } from "@mantine/core";
import { Notifications } from "@mantine/notifications";
import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { queryClient as appQueryClient } from "../lib/query-client";
import { cssVariablesResolver, theme } from "./theme";

export function AppProviders({ children, queryClient = appQueryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
