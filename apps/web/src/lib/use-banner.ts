import { LIMITS } from "@tally/contract";
import { useCallback, useEffect, useRef, useState } from "react";

export interface Banner {
  kind: "success" | "error";
  text: string;
}

/** A page's message line: success texts clear themselves after 3 s (spec section 4), errors stay. */
export function useBanner() {
  const [banner, setBanner] = useState<Banner | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stopTimer = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);

  useEffect(() => stopTimer, [stopTimer]);

  const show = useCallback(
    (kind: Banner["kind"], text: string) => {
      stopTimer();
      setBanner({ kind, text });
      if (kind === "success") timer.current = setTimeout(() => setBanner(null), LIMITS.bannerClearMs);
    },
    [stopTimer],
  );

  const clear = useCallback(() => {
    stopTimer();
    setBanner(null);
  }, [stopTimer]);

  return { banner, show, clear };
}
