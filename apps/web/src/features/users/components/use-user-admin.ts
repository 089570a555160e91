import type { UserListItem } from "@tally/contract";
import { useState } from "react";
import { useBanner } from "../../../lib/use-banner";
import { useUsers } from "../api/get-users";
import { matchesSearch } from "../lib/user-rules";
import { useStatusChange } from "./use-status-change";

/**
 * What both user screens hold (the settings list and the /users table): the accounts, the
 * search, the message line, the open dialog and the status change. They differ in layout and in
 * the status error text, which the spec words differently for each.
 */
export function useUserAdmin<Dialog>(statusFallback: (user: UserListItem) => string) {
  const users = useUsers();
  const [search, setSearch] = useState("");
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const { banner, show, clear } = useBanner();
  const changeStatus = useStatusChange({
    onSuccess: (text) => show("success", text),
    onError: (text) => show("error", text),
    fallback: statusFallback,
  });
  return {
    users,
    /** The accounts whose username, e-mail or role contains the search. */
    matching: (users.data ?? []).filter((u) => matchesSearch(u, search)),
    search,
    setSearch,
    dialog,
    setDialog,
    closeDialog: () => setDialog(null),
    banner,
    show,
    clearBanner: clear,
    changeStatus,
    /** The Create User dialog's Continue: close it, reload the list, say so. */
    onCreated: () => {
      setDialog(null);
      void users.refetch();
      show("success", "User created successfully");
    },
  };
}
