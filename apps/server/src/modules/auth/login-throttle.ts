import { LIMITS } from "@tally/contract";
import type { DbExecutor } from "../../db/executor.js";
import { hasSignedInFrom } from "../users/accounts.service.js";
import * as throttle from "./login-throttle.repository.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Who is trying: the account named (by id when it exists, else by the text typed) and the client address. */
export interface SignInAttempter {
  userId: number | null;
  /** Trimmed and lower-cased. */
  login: string;
  address: string;
}

/** The places one attempt holds on its counters until it is settled. */
export interface SignInReservation {
  pair: throttle.ThrottleReservation;
  /** Null when the account is known at this address and so exempt from the address limit. */
  address: throttle.ThrottleReservation | null;
}

// The address comes first and never holds "|", so two different attempters never share a key.
const pairKey = (who: SignInAttempter) =>
  `pair|${who.address}|${who.userId === null ? `login:${who.login}` : `user:${who.userId}`}`;
const addressKey = (address: string) => `address|${address}`;

const windowExpiredBefore = (now: Date) => new Date(now.getTime() - LIMITS.loginFailureWindowMinutes * MINUTE);

/**
 * Takes this attempt's places on its counters before the password is checked, or returns
 * undefined when a limit is reached. The (account, address) pair slows guessing at one
 * account without letting a stranger lock its owner out from elsewhere; the address counter
 * slows a run over many accounts, except for accounts that signed in from that address lately
 * (a school's shared address must not lock its staff out).
 */
export async function reserveSignIn(
  db: DbExecutor,
  who: SignInAttempter,
  now: Date,
): Promise<SignInReservation | undefined> {
  const expiredBefore = windowExpiredBefore(now);
  const [pair, knownHere] = await Promise.all([
    throttle.reserveAttempt(db, pairKey(who), now, expiredBefore),
    hasSignedInFrom(db, who.userId, who.address, new Date(now.getTime() - LIMITS.loginKnownAddressDays * DAY)),
  ]);
  if (pair.attempts > LIMITS.loginFailuresPerAccount) return undefined;
  if (knownHere) return { pair, address: null };

  const address = await throttle.reserveAttempt(db, addressKey(who.address), now, expiredBefore);
  if (address.attempts > LIMITS.loginFailuresPerClient) {
    // The attempt never happened, so it must not use up one of the account's tries either.
    await throttle.releaseAttempt(db, pair);
    return undefined;
  }
  return { pair, address };
}

/**
 * A success is no failure: the account starts afresh at this address and the address gets its
 * place back. Finished windows are swept here, which keeps the table small without a timer.
 */
export async function settleSuccessfulSignIn(db: DbExecutor, reservation: SignInReservation, now: Date): Promise<void> {
  await throttle.clearAttempts(db, reservation.pair.key);
  if (reservation.address) await throttle.releaseAttempt(db, reservation.address);
  await throttle.deleteExpiredAttempts(db, windowExpiredBefore(now));
}

/** The second factor's counter: per account, wherever the codes come from (the password is already known). */
const mfaKey = (userId: number) => `mfa|user:${userId}`;

/** A counter at its limit: the whole seconds until its window ends (at least 1), for Retry-After. */
export interface ThrottleRefusal {
  retryAfterSeconds: number;
}

/**
 * Takes one place on the account's second-factor counter before a code is checked (the same
 * single-statement upsert as passwords), or, when the limit is reached, how long until the
 * window that holds it ends.
 */
export async function reserveMfaCheck(db: DbExecutor, userId: number, now: Date): Promise<throttle.ThrottleReservation | ThrottleRefusal> {
  const reservation = await throttle.reserveAttempt(db, mfaKey(userId), now, windowExpiredBefore(now));
  if (reservation.attempts <= LIMITS.mfaFailuresPerAccount) return reservation;
  const endsAt = reservation.windowStartedAt.getTime() + LIMITS.loginFailureWindowMinutes * MINUTE;
  return { retryAfterSeconds: Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000)) };
}

/** A right code: the account's second-factor counter starts afresh. */
export async function settleMfaCheck(db: DbExecutor, reservation: throttle.ThrottleReservation): Promise<void> {
  await throttle.clearAttempts(db, reservation.key);
}
