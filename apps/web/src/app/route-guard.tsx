import type { ReactNode } from "react";
import { Navigate, Outlet, useLocation, useParams } from "react-router";
import { useCurrentUser } from "../lib/auth-store";
import { type AccessRule, decideAccess } from "../lib/route-access";

export interface LoginRedirectState {
  from?: string;
}

/** Renders its children (or the child route) when allowed, else /login or /unauthorized. */
export function RouteGuard({ rule, children }: { rule: AccessRule; children?: ReactNode }) {
  const user = useCurrentUser();
  const params = useParams();
  const location = useLocation();
  const decision = decideAccess(user, rule, params);
  if (decision === "login") {
    const state: LoginRedirectState = { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to="/login" replace state={state} />;
  }
  if (decision === "unauthorized") return <Navigate to="/unauthorized" replace />;
  return children ?? <Outlet />;
}
