import type { DemoSettingsResponse, SaveDemoSettingsRequest } from "@tally/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";
import { queryKeys } from "../../../lib/query-keys";

export function saveDemoSettings(body: SaveDemoSettingsRequest) {
  return apiRequest<DemoSettingsResponse>("/settings/demo", { method: "POST", body });
}

export function useSaveDemoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveDemoSettings,
    onSuccess: (reply) => {
      queryClient.setQueryData(queryKeys.settings.demo, reply.data);
      // Lists and counts follow the demo toggles: everything cached may be stale.
      return queryClient.invalidateQueries();
    },
  });
}
