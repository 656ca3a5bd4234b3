// Slows down and then locks out repeated failed sign-ins, per username and per client address,
// with rate-limiter-flexible's memory store, or its Redis store when replicas share one (REDIS_URL:
// an attacker spread over several replicas gets no more attempts than against one; while Redis is
// away each replica counts on its own). Unknown usernames are counted exactly like real ones, so a
// lockout never tells an attacker which names exist.
import type { RedisClient } from '../redis/redis-connection';
import type { ConsoleRedisKeys } from '../redis/redis-keys';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { QuotaPolicy } from '../http/rate-limit-fields';

/** Thresholds; the defaults follow OWASP's authentication guidance for an internal console. */
export interface SignInThrottlePolicy {
  /** Failures for one username after which each further failure imposes a growing wait. */
  slowAfter: number;
  /** Failures for one username within `windowSeconds` that lock it for `lockSeconds`. */
  userLockAfter: number;
  /** Failures from one address within `windowSeconds` that lock the address for `lockSeconds`. */
  addressLockAfter: number;
  windowSeconds: number;
  lockSeconds: number;
  /** Longest wait of the slow-down phase. */
  maxSlowDownSeconds: number;
}

export const DEFAULT_SIGN_IN_THROTTLE: SignInThrottlePolicy = {
  slowAfter: 3,
  userLockAfter: 10,
  addressLockAfter: 30,
  windowSeconds: 15 * 60,
  lockSeconds: 15 * 60,
  maxSlowDownSeconds: 60,
};

/** Who is trying: the normalised username and the client address. */
export interface SignInAttempt {
  username: string;
  address: string;
}

/** Where the counts live when replicas share them. */
export interface SharedThrottleStore {
  readonly redis: RedisClient;
  /** The deployment's key names. */
  readonly keys: ConsoleRedisKeys;
}

/** A limiter in memory, or in Redis with a memory one standing in while Redis is away. */
function limiter(options: IRateLimiterOptions, shared: SharedThrottleStore | undefined) {
  if (!shared) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    keyPrefix: shared.keys.limiter(options.keyPrefix ?? 'sign-in'),
    storeClient: shared.redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/** What a reserved attempt needs to be settled once its password has been checked. */
export interface SignInReservation {
  readonly attempt: SignInAttempt;
  /** The username's attempts in the window, this one included. */
  readonly userCount: number;
  /** The address's attempts in the window, this one included. */
  readonly addressCount: number;
}

/** Which count refused an attempt: the username's (its slow-down included) or the address's. */
export type SignInLimit = 'user' | 'address';

/** The outcome of a reservation: go ahead and check the password, or wait this many seconds. */
export type SignInReservationResult =
  | { readonly reserved: SignInReservation; readonly waitSeconds: 0 }
  | {
      readonly reserved?: undefined;
      readonly waitSeconds: number;
      readonly refusedBy: SignInLimit;
    };

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * Per-username and per-address attempt counting with a slow-down phase before the lockout.
 *
 * An attempt is reserved (counted) before its password is hashed, in one atomic step per counter
 * (rate-limiter-flexible's consume, a Lua script under Redis), so parallel guesses cannot all
 * pass a check made before any of them was counted: at most `userLockAfter` passwords of one name
 * and `addressLockAfter` of one address are ever checked in a window. A success gives the address
 * its point back (only failures count) and clears the username's count.
 */
export class SignInThrottle {
  readonly #policy: SignInThrottlePolicy;
  readonly #byUser: RateLimiterAbstract;
  readonly #byAddress: RateLimiterAbstract;
  /** Short waits of the slow-down phase, set with block(); one point means "no wait". */
  readonly #cooldown: RateLimiterAbstract;

  constructor(
    policy: SignInThrottlePolicy = DEFAULT_SIGN_IN_THROTTLE,
    shared?: SharedThrottleStore,
  ) {
    this.#policy = policy;
    this.#byUser = limiter(
      {
        keyPrefix: 'sign-in-user',
        points: policy.userLockAfter,
        duration: policy.windowSeconds,
        blockDuration: policy.lockSeconds,
      },
      shared,
    );
    this.#byAddress = limiter(
      {
        keyPrefix: 'sign-in-address',
        points: policy.addressLockAfter,
        duration: policy.windowSeconds,
        blockDuration: policy.lockSeconds,
      },
      shared,
    );
    this.#cooldown = limiter({ keyPrefix: 'sign-in-wait', points: 1, duration: 1 }, shared);
  }

  /** The two counts as quota policies (named in the RateLimit-Policy field of a refusal). */
  policies(): Record<SignInLimit, QuotaPolicy> {
    const { userLockAfter, addressLockAfter, windowSeconds } = this.#policy;
    return {
      user: { id: 'sign-in-user', quota: userLockAfter, windowSeconds },
      address: { id: 'sign-in-address', quota: addressLockAfter, windowSeconds },
    };
  }

  /**
   * Seconds the attempt must wait before it may even be checked, or 0. A waiting attempt is
   * refused without looking at the password, so guessing during a lockout is pointless.
   */
  async secondsToWait(attempt: SignInAttempt): Promise<number> {
    return (await this.#wait(attempt)).seconds;
  }

  async #wait({ username, address }: SignInAttempt): Promise<{ seconds: number; by: SignInLimit }> {
    const states = await Promise.all([
      this.#byUser.get(username),
      this.#byAddress.get(address),
      this.#cooldown.get(`user:${username}`),
    ]);
    const limits = [this.#byUser.points, this.#byAddress.points, this.#cooldown.points];
    const owners: SignInLimit[] = ['user', 'address', 'user'];
    let waitMs = 0;
    let by: SignInLimit = 'user';
    states.forEach((state, index) => {
      if (state && state.consumedPoints > (limits[index] ?? 0) && state.msBeforeNext > waitMs) {
        waitMs = state.msBeforeNext;
        by = owners[index] ?? 'user';
      }
    });
    return { seconds: waitMs > 0 ? seconds(waitMs) : 0, by };
  }

  /**
   * Whether the name itself must wait now (locked, or in a slow-down), whatever the address: what
   * an admin's unlock lifts, so the admin can be told when there was nothing to lift.
   */
  async isPaused(username: string): Promise<boolean> {
    const [user, cooldown] = await Promise.all([
      this.#byUser.get(username),
      this.#cooldown.get(`user:${username}`),
    ]);
    return (
      (user !== null && user.consumedPoints > this.#byUser.points && user.msBeforeNext > 0) ||
      (cooldown !== null &&
        cooldown.consumedPoints > this.#cooldown.points &&
        cooldown.msBeforeNext > 0)
    );
  }

  /**
   * Lifts a username's lockout and slow-down at once (an admin's unlock): the next attempt is
   * checked as the first. The address count stays: it guards against guessing many names.
   */
  async unlock(username: string): Promise<void> {
    await Promise.all([this.#byUser.delete(username), this.#cooldown.delete(`user:${username}`)]);
  }

  /**
   * Counts the attempt before its password is checked, or says how long it must wait. The
   * username is counted first: an attempt refused because its name is locked costs the address
   * nothing, so one locked account does not lock its colleagues out of a shared address sooner
   * than the address policy says.
   */
  async reserve(attempt: SignInAttempt): Promise<SignInReservationResult> {
    const wait = await this.#wait(attempt);
    if (wait.seconds > 0) return { waitSeconds: wait.seconds, refusedBy: wait.by };
    let user: RateLimiterRes;
    try {
      user = await this.#byUser.consume(attempt.username);
    } catch (error) {
      return { waitSeconds: seconds(refused(error).msBeforeNext), refusedBy: 'user' };
    }
    let address: RateLimiterRes;
    try {
      address = await this.#byAddress.consume(attempt.address);
    } catch (error) {
      const refusal = refused(error);
      await this.#byUser.reward(attempt.username, 1);
      return { waitSeconds: seconds(refusal.msBeforeNext), refusedBy: 'address' };
    }
    return {
      waitSeconds: 0,
      reserved: {
        attempt,
        userCount: user.consumedPoints,
        addressCount: address.consumedPoints,
      },
    };
  }

  /** Settles a reserved attempt whose password was wrong: a wait, or a lockout at a threshold. */
  async recordFailure({ attempt, userCount, addressCount }: SignInReservation): Promise<void> {
    const { username, address } = attempt;
    const policy = this.#policy;
    const steps: Promise<unknown>[] = [];
    if (userCount >= policy.userLockAfter) {
      steps.push(this.#byUser.block(username, policy.lockSeconds));
    } else if (userCount >= policy.slowAfter) {
      // 1 s, 2 s, 4 s … up to the cap: a person who mistyped barely notices, a script crawls.
      const wait = Math.min(2 ** (userCount - policy.slowAfter), policy.maxSlowDownSeconds);
      steps.push(this.#cooldown.block(`user:${username}`, wait));
    }
    if (addressCount >= policy.addressLockAfter) {
      steps.push(this.#byAddress.block(address, policy.lockSeconds));
    }
    await Promise.all(steps);
  }

  /**
   * Settles a reserved attempt that signed in: forgets the username's failures and gives the
   * address its point back. The address's failures stay, so one valid account cannot be used to
   * reset the counter while guessing another's password.
   */
  async recordSuccess({ attempt }: SignInReservation): Promise<void> {
    await Promise.all([
      this.#byUser.delete(attempt.username),
      this.#cooldown.delete(`user:${attempt.username}`),
      this.#byAddress.reward(attempt.address, 1),
    ]);
  }
}

/** The limiter's refusal, or the store's error passed on (a rejected consume is not an Error). */
function refused(error: unknown): RateLimiterRes {
  if (error instanceof RateLimiterRes) return error;
  throw error;
}
