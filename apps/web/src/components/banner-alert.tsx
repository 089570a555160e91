import { Alert } from "@mantine/core";
import type { Banner } from "../lib/use-banner";

/** Success as a polite status, errors as an alert; both can be dismissed. */
export function BannerAlert({ banner, onClose }: { banner: Banner | null; onClose: () => void }) {
  if (!banner) return null;
  const success = banner.kind === "success";
  return (
    <Alert
      color={success ? "green" : "red"}
      role={success ? "status" : "alert"}
      withCloseButton
      closeButtonLabel="Dismiss message"
      onClose={onClose}
      data-testid={success ? "success-banner" : "error-banner"}
    >
      {banner.text}
    </Alert>
  );
}
