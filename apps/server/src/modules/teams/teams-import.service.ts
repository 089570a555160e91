// The teams module's writes for the weekly import and its undo.
export { deleteUnusedTeams, insertTeams, type NewTeamRow, reserveTeamIds } from "./teams-import.repository.js";
