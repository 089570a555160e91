import { useEffect } from "react";
import { useRouteError } from "react-router";
import { ErrorFallback } from "./error-fallback";

/** Router errorElement: errors thrown while rendering or loading a route. */
export function RouteErrorView() {
  const error = useRouteError();
  useEffect(() => {
    console.error("Route failed", error);
  }, [error]);
  return <ErrorFallback />;
}
