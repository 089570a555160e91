import { Title } from "@mantine/core";

/** /admin/* catch-all for super_admin (spec: placeholder text "Admin Area"). */
export function AdminAreaPage() {
  return <Title order={1}>Admin Area</Title>;
}
