import { act, render, screen } from "@testing-library/react";
import { Component, type ReactNode, Suspense, useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { lazyComponent } from "./lazy-component";

function Greeting({ name }: { name: string }) {
  const [clicks, setClicks] = useState(0);
  return (
    <button type="button" onClick={() => setClicks((c) => c + 1)}>
      Hello {name} {clicks}
    </button>
  );
}

class Catch extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(err: Error) {
    return { error: err.message };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error}</p> : this.props.children;
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const page = (ui: ReactNode) => (
  <Catch>
    <Suspense fallback={<p>loading</p>}>{ui}</Suspense>
  </Catch>
);

describe("lazyComponent", () => {
  it("shows the fallback until code that was not preloaded arrives, as React.lazy does", async () => {
    const code = deferred<typeof Greeting>();
    const load = vi.fn(() => code.promise);
    const Lazy = lazyComponent(load);
    render(page(<Lazy name="Ada" />));
    expect(screen.getByText("loading")).toBeTruthy();
    await act(async () => code.resolve(Greeting));
    expect(await screen.findByRole("button", { name: "Hello Ada 0" })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("renders preloaded code in the first render, with no fallback at all", async () => {
    const load = vi.fn(async () => Greeting);
    const Lazy = lazyComponent(load);
    Lazy.preload();
    Lazy.preload();
    await act(async () => {});
    const fallback = vi.fn(() => <p>loading</p>);
    function Fallback() {
      return fallback();
    }
    render(
      <Suspense fallback={<Fallback />}>
        <Lazy name="Bo" />
      </Suspense>,
    );
    expect(screen.getByRole("button", { name: "Hello Bo 0" })).toBeTruthy();
    expect(fallback).not.toHaveBeenCalled();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps a mounted component's state when re-rendered after its code arrived", async () => {
    const code = deferred<typeof Greeting>();
    const Lazy = lazyComponent(() => code.promise);
    const { rerender } = render(page(<Lazy name="Cy" />));
    await act(async () => code.resolve(Greeting));
    const button = await screen.findByRole("button", { name: "Hello Cy 0" });
    act(() => button.click());
    rerender(page(<Lazy name="Cy" />));
    expect(screen.getByRole("button", { name: "Hello Cy 1" })).toBeTruthy();
  });

  it("tries again after a failed preload instead of keeping the failure", async () => {
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new Error("offline")).mockResolvedValue(Greeting);
    const Lazy = lazyComponent(load);
    Lazy.preload();
    await act(async () => {});
    render(page(<Lazy name="Di" />));
    expect(await screen.findByRole("button", { name: "Hello Di 0" })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
