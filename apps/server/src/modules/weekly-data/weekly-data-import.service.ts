// The weekly-data module's reads and writes for the weekly import and its undo.
export {
  deleteWeeklyRows,
  findWeekRows,
  insertWeeklyRows,
  type NewWeeklyRow,
  setWeeklyValues,
  type StoredWeeklyRow,
  type WeeklyValues,
} from "./weekly-data-import.repository.js";
