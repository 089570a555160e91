import { type ComponentType, createElement, lazy, useState } from "react";

export type PreloadableComponent<P extends object> = ComponentType<P> & {
  /** Starts fetching the code now; rendering later then needs no wait. */
  preload(): void;
};

/**
 * React.lazy, except that a component whose code has already arrived (say, preloaded) renders
 * at once. React.lazy suspends on its first render even then, and React holds back the
 * content of a Suspense boundary it has just shown a fallback for by up to 300 ms: on a fresh
 * sign-in that cost the dashboard two such pauses.
 */
export function lazyComponent<P extends object>(load: () => Promise<ComponentType<P>>): PreloadableComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const start = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        // Let a later render try again (a flaky network), instead of keeping the failure.
        pending = undefined;
        throw err;
      },
    );
    return pending;
  };
  const Lazy = lazy(() => start().then((component) => ({ default: component })));
  function Component(props: P) {
    // Chosen once per mounted instance: switching from Lazy to the loaded component later
    // would remount it and lose its state.
    const [ready] = useState(() => loaded);
    return ready ? createElement(ready, props) : createElement(Lazy, props);
  }
  return Object.assign(Component, {
    preload() {
      start().catch(() => {});
    },
  });
}
