import { Alert, Badge, Button, Group, Loader, Select, SimpleGrid, Stack, Switch, Text } from "@mantine/core";
import { type CohortItem, type CohortVisibilitySetting, fallbackCohortVisible, VISIBILITY_MESSAGES } from "@tally/contract";
import { useMemo, useState } from "react";
import { BannerAlert } from "../../../components/banner-alert";
import { useCohorts } from "../../../lib/api/get-cohorts";
import { useSchoolOptions } from "../../../lib/api/get-schools";
import { useBanner } from "../../../lib/use-banner";
import { useCohortVisibility } from "../api/get-cohort-visibility";
import { useSaveCohortVisibility } from "../api/save-cohort-visibility";
import { SettingsSection } from "./settings-section";

const ALL = "all";
type Target = typeof ALL | number;

const keyOf = (cohortId: number, target: Target) => `${cohortId}:${target}`;

/** Stored rows by cohort and target ("all" or a school id). */
function indexRows(rows: readonly CohortVisibilitySetting[]): Map<string, boolean> {
  return new Map(rows.map((r) => [keyOf(r.cohort_id, r.school_id ?? ALL), r.is_visible]));
}

/** The fallback of the spec: the cohorts starting this year or last year count as visible. */
function fallbackRows(cohorts: readonly CohortItem[], today: Date): CohortVisibilitySetting[] {
  return cohorts.map((c) => ({ cohort_id: c.id, school_id: null, is_visible: fallbackCohortVisible(c.start_date, today) }));
}

const newestFirst = (a: CohortItem, b: CohortItem) => b.start_date.localeCompare(a.start_date) || a.name.localeCompare(b.name);

/**
 * Spec section "School Data Visibility": one switch per cohort, for all schools or one school
 * (a school's own setting overrides the all-schools one). Changes collect as unsaved edits,
 * kept while the school filter changes, until Save sends them in one batch or Discard drops them.
 */
export function VisibilitySection() {
  const cohorts = useCohorts(null);
  const schools = useSchoolOptions();
  const visibility = useCohortVisibility();
  const saveMutation = useSaveCohortVisibility();
  const { banner, show, clear } = useBanner();
  const [target, setTarget] = useState<Target>(ALL);
  // Unsaved edits by keyOf(cohort, target): what the admin chose, not yet saved.
  const [edits, setEdits] = useState<ReadonlyMap<string, boolean>>(new Map());

  const fallback = visibility.isError;
  const sortedCohorts = useMemo(() => (cohorts.data ?? []).toSorted(newestFirst), [cohorts.data]);
  const stored = useMemo(
    () => indexRows(fallback ? fallbackRows(sortedCohorts, new Date()) : (visibility.data ?? [])),
    [fallback, sortedCohorts, visibility.data],
  );

  /** What applies: an edit, else the stored row; for a school, else the all-schools value; else visible. */
  const valueAt = (cohortId: number, at: Target): boolean => {
    const own = edits.get(keyOf(cohortId, at)) ?? stored.get(keyOf(cohortId, at));
    if (own !== undefined) return own;
    return at === ALL ? true : valueAt(cohortId, ALL);
  };

  const toggle = (cohortId: number, visible: boolean) => {
    const key = keyOf(cohortId, target);
    const next = new Map(edits);
    const storedOwn = stored.get(key);
    // Back to what is stored (or, for a school without its own row, to what it inherits): no edit left.
    const inherited = target === ALL ? true : valueAt(cohortId, ALL);
    if (visible === (storedOwn ?? inherited)) next.delete(key);
    else next.set(key, visible);
    setEdits(next);
  };

  const save = () => {
    const settings = [...edits].map(([key, is_visible]) => {
      const [cohort, at] = key.split(":") as [string, string];
      return { cohort_id: Number(cohort), school_id: at === ALL ? null : Number(at), is_visible };
    });
    clear();
    saveMutation.mutate(settings, {
      onSuccess: () => {
        setEdits(new Map());
        show("success", VISIBILITY_MESSAGES.saved);
      },
      onError: () => show("error", VISIBILITY_MESSAGES.saveFailed),
    });
  };

  if (cohorts.isPending || schools.isPending || visibility.isPending) {
    return (
      <SettingsSection title="School Data Visibility">
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden="true" />
          <Text size="sm">Loading settings...</Text>
        </Group>
      </SettingsSection>
    );
  }

  const schoolData = [{ value: ALL, label: "All schools" }, ...(schools.data ?? []).map((s) => ({ value: String(s.id), label: s.name }))];
  const pendingHere = [...edits.keys()].filter((k) => k.endsWith(`:${target}`)).length;
  const year = new Date().getFullYear();

  return (
    <SettingsSection title="School Data Visibility">
      <Text size="sm" c="dimmed">
        Choose which cohorts school and district users see. A setting for one school overrides the All schools setting.
        Admins always see every cohort.
      </Text>
      {fallback && (
        <Alert color="yellow" role="alert" title={VISIBILITY_MESSAGES.loadFailed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Showing a fallback, not the saved settings: cohorts starting in {year - 1} or {year} are shown as visible.
            </Text>
            <Button size="xs" variant="light" onClick={() => void visibility.refetch()} loading={visibility.isFetching}>
              Retry
            </Button>
          </Stack>
        </Alert>
      )}
      <BannerAlert banner={banner} onClose={clear} />
      <Group align="flex-end" justify="space-between" gap="sm">
        <Select
          label="Show settings for"
          data={schoolData}
          value={String(target)}
          onChange={(v) => setTarget(v === null || v === ALL ? ALL : Number(v))}
          allowDeselect={false}
          searchable
          nothingFoundMessage="No schools found"
          w={{ base: "100%", xs: 280 }}
        />
        {edits.size > 0 && (
          <Badge color="orange" variant="light" data-testid="unsaved-badge">
            Unsaved changes: {edits.size}
          </Badge>
        )}
      </Group>
      {sortedCohorts.length === 0 ? (
        <Text size="sm">No cohorts yet.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
          {sortedCohorts.map((cohort) => {
            const key = keyOf(cohort.id, target);
            const edited = edits.has(key);
            const ownRow = edited || stored.has(key);
            const origin =
              target === ALL ? "" : ownRow ? " · set for this school" : " · follows All schools";
            return (
              <Switch
                key={cohort.id}
                label={cohort.name}
                // The label element also wraps the description: name the switch by the cohort alone.
                aria-label={cohort.name}
                description={`Starts ${cohort.start_date}${origin}${edited ? " · unsaved" : ""}`}
                checked={valueAt(cohort.id, target)}
                onChange={(e) => toggle(cohort.id, e.currentTarget.checked)}
                color={edited ? "orange" : undefined}
                disabled={saveMutation.isPending}
              />
            );
          })}
        </SimpleGrid>
      )}
      {target !== ALL && pendingHere === 0 && edits.size > 0 && (
        <Text size="xs" c="dimmed">
          The unsaved changes are on other choices of the school filter; Save sends them all.
        </Text>
      )}
      <Group gap="sm">
        <Button onClick={save} disabled={edits.size === 0} loading={saveMutation.isPending}>
          Save visibility settings
        </Button>
        <Button variant="default" onClick={() => setEdits(new Map())} disabled={edits.size === 0 || saveMutation.isPending}>
          Discard changes
        </Button>
      </Group>
    </SettingsSection>
  );
}
