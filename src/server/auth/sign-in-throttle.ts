// Slows down and then locks out repeated failed sign-ins, per username and per client address,
// with rate-limiter-flexible's memory store, or its Redis store when replicas share one (REDIS_URL:
// an attacker spread over several replicas gets no more attempts than against one; while Redis is
// away each replica counts on its own). Unknown usernames are counted exactly like real ones, so a
// lockout never tells an attacker which names exist.
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type IRateLimiterOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

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
  readonly redis: Redis;
  /** Prefix of the keys (one per console deployment). */
  readonly namespace: string;
}

/** A limiter in memory, or in Redis with a memory one standing in while Redis is away. */
function limiter(options: IRateLimiterOptions, shared: SharedThrottleStore | undefined) {
  if (!shared) return new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    keyPrefix: `${shared.namespace}:${options.keyPrefix}`,
    storeClient: shared.redis,
    rejectIfRedisNotReady: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/** Per-username and per-address failure counting with a slow-down phase before the lockout. */
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
        points: policy.userLockAfter - 1,
        duration: policy.windowSeconds,
        blockDuration: policy.lockSeconds,
      },
      shared,
    );
    this.#byAddress = limiter(
      {
        keyPrefix: 'sign-in-address',
        points: policy.addressLockAfter - 1,
        duration: policy.windowSeconds,
        blockDuration: policy.lockSeconds,
      },
      shared,
    );
    this.#cooldown = limiter({ keyPrefix: 'sign-in-wait', points: 1, duration: 1 }, shared);
  }

  /**
   * Seconds the attempt must wait before it may even be checked, or 0. A waiting attempt is
   * refused without looking at the password, so guessing during a lockout is pointless.
   */
  async secondsToWait({ username, address }: SignInAttempt): Promise<number> {
    const states = await Promise.all([
      this.#byUser.get(username),
      this.#byAddress.get(address),
      this.#cooldown.get(`user:${username}`),
    ]);
    const limits = [this.#byUser.points, this.#byAddress.points, this.#cooldown.points];
    let waitMs = 0;
    states.forEach((state, index) => {
      if (state && state.consumedPoints > (limits[index] ?? 0)) {
        waitMs = Math.max(waitMs, state.msBeforeNext);
      }
    });
    return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
  }

  /** Counts a failed attempt, starting a wait or a lockout when a threshold is reached. */
  async recordFailure({ username, address }: SignInAttempt): Promise<void> {
    const consumed = (result: RateLimiterRes | Error) => {
      if (result instanceof RateLimiterRes) return result;
      throw result;
    };
    const [user] = await Promise.all([
      this.#byUser.consume(username).catch(consumed),
      this.#byAddress.consume(address).catch(consumed),
    ]);
    const failures = user.consumedPoints;
    if (failures >= this.#policy.slowAfter && failures < this.#policy.userLockAfter) {
      // 1 s, 2 s, 4 s … up to the cap: a person who mistyped barely notices, a script crawls.
      const seconds = Math.min(
        2 ** (failures - this.#policy.slowAfter),
        this.#policy.maxSlowDownSeconds,
      );
      await this.#cooldown.block(`user:${username}`, seconds);
    }
  }

  /**
   * Forgets the username's failures after a successful sign-in. The address count stays, so one
   * valid account cannot be used to reset the counter while guessing another's password.
   */
  async recordSuccess({ username }: SignInAttempt): Promise<void> {
    await Promise.all([this.#byUser.delete(username), this.#cooldown.delete(`user:${username}`)]);
  }
}
