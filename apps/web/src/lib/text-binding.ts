import type { ChangeEvent } from "react";

/** The value and onChange of a controlled text input bound to one piece of state. */
export function bindText(value: string, set: (value: string) => void) {
  return {
    value,
    onChange: (event: ChangeEvent<HTMLInputElement>) => set(event.currentTarget.value),
  };
}
