import { Anchor, Text } from "@mantine/core";
import { LIMITS } from "@tally/contract";
import { useState } from "react";

/** A district user's schools: the first five, then "+N more..." / "Show less". */
export function SchoolNamesToggle({ names, username }: { names: string[]; username: string }) {
  const [expanded, setExpanded] = useState(false);
  if (names.length === 0) return null;
  const limit = LIMITS.districtSchoolNamesShown;
  const shown = expanded ? names : names.slice(0, limit);
  const hidden = names.length - limit;
  return (
    <Text size="xs" c="dimmed" component="div">
      {shown.join(", ")}
      {hidden > 0 ? (
        <>
          {" "}
          <Anchor
            component="button"
            type="button"
            size="xs"
            onClick={() => setExpanded((v) => !v)}
            aria-expanded={expanded}
            aria-label={expanded ? `Show fewer schools of ${username}` : `Show ${hidden} more schools of ${username}`}
          >
            {expanded ? "Show less" : `+${hidden} more...`}
          </Anchor>
        </>
      ) : null}
    </Text>
  );
}
