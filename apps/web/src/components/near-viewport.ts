import { type RefObject, useEffect, useState } from "react";

/**
 * True once the element has come within `margin` of the viewport, and from then on. Lets a
 * costly drawing wait until someone can see it: on a phone the trend chart sits below the
 * cards, and drawing it at load cost the signed-in dashboard about 2 s of blocked main thread
 * at a 4x slower CPU. Without IntersectionObserver (old browsers, jsdom) it is true at once.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = "200px"): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}
