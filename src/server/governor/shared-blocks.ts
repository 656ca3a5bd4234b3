// Blocks announced by upstream 429s, shared by every replica through Redis: the replica that got
// the 429 publishes the block at once (before its incident is even stored), and keeps it under a
// key until it ends, so a replica that starts or reconnects later finds it. The incident feed
// (incident-feed.ts) carries the same blocks through the database, for when Redis is away.
import type { RedisClient } from '../redis/redis-connection';
import * as z from 'zod';
import type { Logger } from '../observability/logger';
import type { ConnectionRedisKeys } from '../redis/redis-keys';
import type { Governor, GovernorBlock } from './governor';

const BlockSchema = z.object({
  scope: z.enum(['account', 'rule']),
  ruleId: z.string().max(200).nullable(),
  period: z.enum(['MINUTE', 'HOUR']).nullable(),
  until: z.number().int().positive(),
  incidentKey: z.string().max(200).nullable(),
  // Absent from a replica of an older version: its pages name the limit without the figures.
  stated: z
    .object({
      requestsAllowed: z.number().int().nonnegative().nullable(),
      request: z.string().max(300).optional(),
    })
    .optional(),
});

// Keeps the longer of the stored block and the new one: a block never shortens.
const SET_IF_LONGER = `
local current = redis.call('GET', KEYS[1])
if current then
  local ok, stored = pcall(cjson.decode, current)
  if ok and tonumber(stored['until']) and tonumber(stored['until']) >= tonumber(ARGV[2]) then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;

export interface SharedBlocksOptions {
  readonly redis: RedisClient;
  /** A connection of its own for SUBSCRIBE. */
  readonly subscriber: RedisClient;
  readonly governor: Governor;
  /** The deployment's key and channel names. */
  readonly keys: ConnectionRedisKeys;
  readonly now: () => number;
  readonly logger: Logger;
}

/**
 * Shares `governor`'s blocks with the other replicas and applies theirs. Resolves once the blocks
 * already stored are applied; the result stops sharing.
 */
export async function shareBlocks(options: SharedBlocksOptions): Promise<() => void> {
  const { redis, subscriber, governor, keys, now, logger } = options;
  const channel = keys.blocksChannel;
  const keyOf = (block: Pick<GovernorBlock, 'scope' | 'ruleId'>) =>
    keys.block(block.scope, block.ruleId);

  const apply = (text: string | null) => {
    if (!text) return;
    let parsed;
    try {
      parsed = BlockSchema.safeParse(JSON.parse(text));
    } catch {
      return;
    }
    if (parsed.success) governor.block(parsed.data, 'shared');
    else logger.warn('ignored a malformed rate-limit block from another replica');
  };

  const stopListening = governor.onBlock((block) => {
    const text = JSON.stringify(block);
    const ttlMs = Math.max(1, block.until - now() + 1_000);
    redis
      .eval(SET_IF_LONGER, 1, keyOf(block), text, String(block.until), String(ttlMs))
      .then(() => redis.publish(channel, text))
      .catch((error: Error) => {
        // The block holds here; the others learn of it from the incident feed instead.
        logger.warn({ err: error }, 'could not share a rate-limit block through Redis');
      });
  });

  /** Applies every block stored now: at start, and after a reconnect (messages were missed). */
  const load = async () => {
    const keys = [
      keyOf({ scope: 'account', ruleId: null }),
      ...governor
        .rules()
        .filter((rule) => rule.scope !== 'account')
        .map((rule) => keyOf({ scope: 'rule', ruleId: rule.id })),
    ];
    for (const text of await redis.mget(keys)) apply(text);
  };

  const onMessage = (from: string, text: string) => {
    if (from === channel) apply(text);
  };
  let subscribedOnce = false;
  const onReady = () => {
    if (!subscribedOnce) return;
    load().catch((error: Error) => logger.warn({ err: error }, 'could not reload shared blocks'));
  };
  subscriber.on('message', onMessage);
  subscriber.on('ready', onReady);
  await subscriber.subscribe(channel);
  subscribedOnce = true;
  await load();

  return () => {
    stopListening();
    subscriber.off('message', onMessage);
    subscriber.off('ready', onReady);
  };
}
