import { Suspense } from "react";
import { Outlet } from "react-router";
import { PageLoader } from "../../components/page-loader";
import { SlimPage } from "../../components/slim-page";

/** Sign-in, password reset and e-mail verification: a centred card under a slim header. */
export function PublicLayout() {
  return (
    <SlimPage width={440}>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </SlimPage>
  );
}
