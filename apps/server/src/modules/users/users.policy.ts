import { ADMIN_ROLES, canGrantRole, canManageAccount, isAdminRole, type Role } from "@tally/contract";
import { forbidden } from "../../lib/errors.js";

/** The only roles that may call any /users route, register accounts or send reset links. */
export const USER_MANAGER_ROLES: readonly Role[] = ADMIN_ROLES;

export interface Actor {
  id: number;
  role: Role;
}

export interface Target {
  id: number;
  role: Role;
  is_active: boolean;
}

/** What a request would change on the target account; unchanged values are left out. */
export interface AccountChange {
  role?: Role;
  isActive?: boolean;
}

export const POLICY_MESSAGES = {
  notUserManager: "You do not have permission to manage users",
  superAdminTarget: "Only a super admin can manage a super admin account",
  grantSuperAdmin: "Only a super admin can give the super admin role",
  ownRole: "You cannot change your own role",
  ownActiveState: "You cannot deactivate or reactivate your own account",
} as const;

/**
 * May `actor` do anything to `target` (read its history, edit it, send it a reset link)?
 * The contract's canManageAccount, with the reason when not.
 */
export function assertCanManage(actor: Pick<Actor, "role">, target: Pick<Target, "role">): void {
  if (!isAdminRole(actor.role)) throw forbidden(POLICY_MESSAGES.notUserManager);
  if (!canManageAccount(actor.role, target.role)) throw forbidden(POLICY_MESSAGES.superAdminTarget);
}

/** May `actor` create an account with this role? Only a super admin creates a super admin. */
export function assertCanCreate(actor: Pick<Actor, "role">, role: Role): void {
  if (!canGrantRole(actor.role, role)) throw forbidden("Only a super admin can create a super admin");
}

/**
 * May `actor` make this change to `target`? Nobody changes their own role or active state
 * (an administrator must not lock themself out or demote the last super admin by accident),
 * and only a super admin hands out the super admin role.
 */
export function assertCanChange(actor: Actor, target: Target, change: AccountChange): void {
  assertCanManage(actor, target);
  if (change.role !== undefined && !canGrantRole(actor.role, change.role)) {
    throw forbidden(POLICY_MESSAGES.grantSuperAdmin);
  }
  if (actor.id === target.id) {
    if (change.role !== undefined && change.role !== target.role) throw forbidden(POLICY_MESSAGES.ownRole);
    if (change.isActive !== undefined && change.isActive !== target.is_active) {
      throw forbidden(POLICY_MESSAGES.ownActiveState);
    }
  }
}
