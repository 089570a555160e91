import { useCallback } from "react";
import { useNavigate } from "react-router";
import { logout } from "./logout";

/** Logs out on the server, clears the session and shows the sign-in page. */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await logout();
    await navigate("/login", { replace: true });
  }, [navigate]);
}
