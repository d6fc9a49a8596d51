package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua script with its bytes and SHA-1 digest worked out once, so that every call can go
 * by EVALSHA and fall back to EVAL only when the server answers NOSCRIPT.
 */
final class LockScript {

	/**
	 * Takes the lock if it is free and issues its fencing token. KEYS[1] the lock key,
	 * KEYS[2] the fencing counter of KEYS[1]'s slot ({@link FencingCounters}), ARGV[1] the
	 * owner token, ARGV[2] the TTL in milliseconds.
	 * <p>
	 * One integer answers both cases, cheaper to read than an array: when the lock was
	 * taken for ARGV[1], the counter after INCR, which is the fencing token and at least 1;
	 * otherwise {@code -(PTTL + 2)} of the holder, at most 0 (-1 when the key has no
	 * expiry), so that a refused caller learns when to retry without a second round trip.
	 * PTTL cannot answer -2 (no key) here, as SET NX just found the key; should it, the
	 * answer 0 still reads as held, never as acquired.
	 * <p>
	 * A key that already holds ARGV[1] is this very acquire, run twice: Lettuce sends again,
	 * after it reconnects, a command whose connection closed before its reply came. The
	 * first run's answer was lost, so the second takes the lock over as acquired now (its
	 * TTL from now, a new fencing token, which is greater than the lost one) instead of
	 * answering its caller that somebody, in fact nobody, holds it. Tokens are random, so no
	 * other caller's acquire can match.
	 */
	static final LockScript ACQUIRE = new LockScript("""
			if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
			  return redis.call('INCR', KEYS[2])
			end
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  redis.call('PEXPIRE', KEYS[1], ARGV[2])
			  return redis.call('INCR', KEYS[2])
			end
			return -2 - redis.call('PTTL', KEYS[1])
			""");

	/**
	 * Compare-and-delete, announced. KEYS[1] the lock key, ARGV[1] the owner token. Deletes
	 * the key only while it still holds ARGV[1], so a caller whose TTL ran out cannot delete
	 * the next owner's lock, and then publishes an empty message on the lock's wake-up
	 * channel {@code {<lock key>}:released} (see {@link RedisLockNotifications}): its hash
	 * tag is the whole lock key, so the channel lives in the lock key's cluster slot. Sharded
	 * pub/sub (SPUBLISH, Redis 7) where the server knows it, else PUBLISH: an unknown command
	 * in {@code redis.pcall} answers an error instead of aborting the script, so one script
	 * serves both. A publish that fails (an ACL that denies it) leaves the release done:
	 * waiters then wake by their maximum wait. Returns 1 when deleted, 0 otherwise.
	 */
	static final LockScript RELEASE = new LockScript("""
			if redis.call('GET', KEYS[1]) ~= ARGV[1] then
			  return 0
			end
			local deleted = redis.call('DEL', KEYS[1])
			local channel = '{' .. KEYS[1] .. '}:released'
			local sharded = redis.pcall('SPUBLISH', channel, '')
			if type(sharded) == 'table' and sharded.err then
			  redis.pcall('PUBLISH', channel, '')
			end
			return deleted
			""");

	/**
	 * Compare-and-PEXPIRE. KEYS[1] the lock key, ARGV[1] the owner token, ARGV[2] the new TTL
	 * in milliseconds. Returns 1 when extended, 0 when the key is gone or owned by another.
	 */
	static final LockScript EXTEND = new LockScript("""
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
			end
			return 0
			""");

	/**
	 * Issues a fencing token to the lock's holder only. KEYS[1] the lock key, KEYS[2] the
	 * fencing counter of KEYS[1]'s slot ({@link FencingCounters}), ARGV[1] the owner token.
	 * Returns the counter after INCR while KEYS[1] still holds ARGV[1], else 0 and leaves the
	 * counter alone.
	 */
	static final LockScript FENCE = new LockScript("""
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return redis.call('INCR', KEYS[2])
			end
			return 0
			""");

	private final byte[] source;

	private final String sha1;

	private LockScript(String source) {
		this.source = source.getBytes(StandardCharsets.UTF_8);
		this.sha1 = sha1(this.source);
	}

	byte[] source() {
		return this.source;
	}

	String sha1() {
		return this.sha1;
	}

	private static String sha1(byte[] bytes) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-1 is required of every Java platform", ex);
		}
	}

}
