// The attendance module's reads and writes for the weekly import and its undo.
export {
  type AttendanceKeyRow,
  deleteAttendance,
  findAttendanceOn,
  insertAttendance,
  type NewAttendanceRow,
  setAttendanceStatuses,
} from "./attendance-import.repository.js";
export { ATTENDANCE_EDIT_ACTION } from "./attendance-edit.repository.js";
