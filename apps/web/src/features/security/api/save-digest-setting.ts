import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

/** PUT /api/profile/digest: the signed-in person's weekly digest e-mails on or off. */
export function saveDigestSetting(enabled: boolean): Promise<{ enabled: boolean }> {
  return apiRequest<{ enabled: boolean }>("/profile/digest", { method: "PUT", body: { enabled } });
}

export function useSaveDigestSetting() {
  return useMutation({ mutationFn: saveDigestSetting });
}
