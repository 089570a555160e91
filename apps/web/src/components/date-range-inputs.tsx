import { TextInput } from "@mantine/core";
import { DATES_OUT_OF_ORDER } from "@tally/contract";

/** True when both days are given and the end comes before the start (YYYY-MM-DD compare as text). */
export function datesOutOfOrder(from: string, to: string): boolean {
  return from !== "" && to !== "" && from > to;
}

interface Props {
  from: string;
  to: string;
  /** Both ends, one of them just changed. */
  onChange: (range: { from: string; to: string }) => void;
}

/** A filter's From and To days, both ends included; To says so when it comes before From. */
export function DateRangeInputs({ from, to, onChange }: Props) {
  return (
    <>
      <TextInput label="From" type="date" value={from} onChange={(e) => onChange({ from: e.currentTarget.value, to })} />
      <TextInput
        label="To"
        type="date"
        value={to}
        onChange={(e) => onChange({ from, to: e.currentTarget.value })}
        error={datesOutOfOrder(from, to) ? DATES_OUT_OF_ORDER : undefined}
      />
    </>
  );
}
