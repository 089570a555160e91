import { ActionIcon, Alert, Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { LIMITS, MESSAGES, type SchoolItem, type SchoolRef, type UserListItem } from "@tally/contract";
import { useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { SectionLoader } from "../../../components/section-loader";
import { errorText } from "../../../lib/api-error";
import { useBanner } from "../../../lib/use-banner";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { useUserSchools } from "../api/get-user-schools";
import { useSetUserSchools } from "../api/set-user-schools";

interface Props {
  user: UserListItem;
  onCancel: () => void;
}

/** Schools not yet chosen whose name contains the search, and how many are left beyond the first ten. */
export function schoolSuggestions(all: readonly SchoolItem[], selected: readonly SchoolRef[], search: string) {
  const chosen = new Set(selected.map((s) => s.id));
  const needle = search.trim().toLowerCase();
  const matches = all.filter((s) => !chosen.has(s.id) && s.name.toLowerCase().includes(needle));
  return {
    shown: matches.slice(0, LIMITS.schoolAccessSuggestions),
    more: Math.max(0, matches.length - LIMITS.schoolAccessSuggestions),
  };
}

function assignedText(n: number): string {
  if (n === 0) return "No schools assigned";
  return n === 1 ? "1 school assigned" : `${n} schools assigned`;
}

function Editor({ user, initial, schools, onCancel }: Props & { initial: SchoolRef[]; schools: SchoolItem[] }) {
  const [selected, setSelected] = useState<SchoolRef[]>(initial);
  const [search, setSearch] = useState("");
  const save = useSetUserSchools(user.id);
  const { banner, show, clear } = useBanner();
  const { shown, more } = schoolSuggestions(schools, selected, search);

  const submit = () => {
    if (selected.length === 0) {
      show("error", MESSAGES.selectSchools);
      return;
    }
    save.mutate(
      selected.map((s) => s.id),
      {
        onSuccess: () => show("success", MESSAGES.schoolAccessUpdated),
        onError: (error) => show("error", errorText(error, "Failed to save school access. Please try again.")),
      },
    );
  };

  return (
    <Stack gap="sm">
      <Title order={3} size="h4">
        Manage School Access for {user.username}
      </Title>
      <Text size="sm" c="dimmed" data-testid="schools-assigned">
        {assignedText(selected.length)}
      </Text>
      <BannerAlert banner={banner} onClose={clear} />
      <Stack gap={4} component="section" aria-label="Selected schools">
        <Text fw={600} size="sm">
          Selected Schools
        </Text>
        {selected.length === 0 ? (
          <Text size="sm" c="dimmed">
            No schools selected
          </Text>
        ) : (
          <Stack component="ul" gap={4} p={0} m={0} style={{ listStyle: "none" }} data-testid="selected-schools">
            {selected.map((s) => (
              <Group component="li" key={s.id} justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm">{s.name}</Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${s.name}`}
                  onClick={() => setSelected((list) => list.filter((x) => x.id !== s.id))}
                >
                  <span aria-hidden="true">×</span>
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
      <Stack gap={4} component="section" aria-label="Add schools">
        <TextInput
          label="Add Schools"
          placeholder="Search schools..."
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed">
            No more schools available
          </Text>
        ) : (
          <Stack component="ul" gap={2} p={0} m={0} style={{ listStyle: "none" }} data-testid="school-suggestions">
            {shown.map((s) => (
              <li key={s.id}>
                <Button
                  variant="subtle"
                  size="compact-sm"
                  fullWidth
                  justify="flex-start"
                  aria-label={`Add ${s.name}`}
                  onClick={() => setSelected((list) => [...list, { id: s.id, name: s.name }])}
                >
                  + {s.name}
                </Button>
              </li>
            ))}
          </Stack>
        )}
        {more > 0 ? (
          <Text size="xs" c="dimmed">
            {more} more schools available. Refine your search.
          </Text>
        ) : null}
      </Stack>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </Button>
        <Button onClick={submit} disabled={save.isPending}>
          {save.isPending ? "Saving..." : "Save Access"}
        </Button>
      </Group>
    </Stack>
  );
}

/** Spec section 2 "Manage School Access panel" for a district user. */
export function SchoolAccessPanel({ user, onCancel }: Props) {
  const schools = useSchoolOptions();
  const assigned = useUserSchools(user.id);
  if (schools.isError) {
    return (
      <Alert color="red" role="alert">
        Failed to load schools. Please try again.
      </Alert>
    );
  }
  if (assigned.isError) {
    return (
      <Alert color="red" role="alert">
        Failed to load user school assignments. Please try again.
      </Alert>
    );
  }
  if (!schools.data || !assigned.data) {
    return <SectionLoader label="Loading schools" />;
  }
  return <Editor user={user} initial={assigned.data} schools={schools.data} onCancel={onCancel} />;
}
