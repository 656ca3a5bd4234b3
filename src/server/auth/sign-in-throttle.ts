// Slows down and then locks out repeated failed sign-ins, per username and per client address,
// with rate-limiter-flexible's memory store. Unknown usernames are counted exactly like real ones,
// so a lockout never tells an attacker which names exist.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

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

/** Per-username and per-address failure counting with a slow-down phase before the lockout. */
export class SignInThrottle {
  readonly #policy: SignInThrottlePolicy;
  readonly #byUser: RateLimiterMemory;
  readonly #byAddress: RateLimiterMemory;
  /** Short waits of the slow-down phase, set with block(); one point means "no wait". */
  readonly #cooldown: RateLimiterMemory;

  constructor(policy: SignInThrottlePolicy = DEFAULT_SIGN_IN_THROTTLE) {
    this.#policy = policy;
    this.#byUser = new RateLimiterMemory({
      keyPrefix: 'sign-in-user',
      points: policy.userLockAfter - 1,
      duration: policy.windowSeconds,
      blockDuration: policy.lockSeconds,
    });
    this.#byAddress = new RateLimiterMemory({
      keyPrefix: 'sign-in-address',
      points: policy.addressLockAfter - 1,
      duration: policy.windowSeconds,
      blockDuration: policy.lockSeconds,
    });
    this.#cooldown = new RateLimiterMemory({ keyPrefix: 'sign-in-wait', points: 1, duration: 1 });
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
