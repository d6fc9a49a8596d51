package io.github.lockable.store.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * A Lua script with its bytes and SHA-1 digest worked out once, so that every call can go
 * by EVALSHA and fall back to EVAL only when the server answers NOSCRIPT.
 */
final class LockScript {

	/**
	 * Lua: the next fencing token of a counter key, written back to it: the larger of the
	 * counter plus one and the server's clock in microseconds ({@code TIME}), as
	 * {@link io.github.lockable.store.LockTokens#nextFencingToken(long, long)} says. A counter
	 * the server lost (a restart without persistence, a failover to a replica that had not
	 * seen the last increments, a DEL or an eviction) starts again above every token issued
	 * before it instead of at 1. Lua numbers are doubles, exact to 2^53: microseconds since
	 * the epoch stay below that until the year 2255. {@code %.0f} writes the number's digits,
	 * where Lua's own conversion would write an exponent.
	 */
	private static final String NEXT_TOKEN = """
			local function next_token(counter)
			  local time = redis.call('TIME')
			  local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
			  local token = math.max((tonumber(redis.call('GET', counter)) or 0) + 1, now)
			  redis.call('SET', counter, string.format('%.0f', token))
			  return token
			end
			""";

	/**
	 * Takes the lock if it is free and issues its fencing token. KEYS[1] the lock key,
	 * KEYS[2] the fencing counter of KEYS[1]'s slot ({@link FencingCounters}), ARGV[1] the
	 * owner token, ARGV[2] the TTL in milliseconds.
	 * <p>
	 * One integer answers both cases, cheaper to read than an array: when the lock was
	 * taken for ARGV[1], the next token of the counter ({@link #NEXT_TOKEN}), at least 1;
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
	static final LockScript ACQUIRE = new LockScript(NEXT_TOKEN + """
			if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
			  return next_token(KEYS[2])
			end
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  redis.call('PEXPIRE', KEYS[1], ARGV[2])
			  return next_token(KEYS[2])
			end
			return -2 - redis.call('PTTL', KEYS[1])
			""");

	/**
	 * {@link #ACQUIRE} behind the lock-delay: no lock of KEYS[1]'s slot is granted until
	 * ARGV[3] milliseconds after the server may have forgotten the locks it held. KEYS[3] is
	 * the slot's marker ({@link FencingCounters#markerKey(byte[])}), holding the
	 * {@code run_id} of the server that wrote it and the end of its delay in milliseconds
	 * of the server's clock. A marker of another {@code run_id} means that another server
	 * process wrote it: a failover to a replica, or a restart that kept the data (with a
	 * restart that did not, the marker is gone): the delay runs from now. No marker means a
	 * slot first used since this server started, or a server that forgot its data: the
	 * delay runs from the server's start ({@code uptime_in_seconds}, the difference of two
	 * whole seconds, so one second is added to be on the safe side), so it is over for a
	 * slot first used later than that. ARGV[4]
	 * {@code 1} issues the fencing token as {@link #ACQUIRE} does; otherwise a granted lock
	 * answers 1 and its token is issued later, by {@link #FENCE}. A delay answers as a
	 * holder's remaining TTL.
	 */
	static final LockScript DELAYED_ACQUIRE = new LockScript(NEXT_TOKEN + """
			local info = redis.call('INFO', 'server')
			local run_id = string.match(info, 'run_id:(%w+)')
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			local marker = redis.call('GET', KEYS[3])
			local seen, ends
			if marker then
			  seen, ends = string.match(marker, '^(%w+) (%d+)$')
			end
			if seen ~= run_id then
			  if marker then
			    ends = now + tonumber(ARGV[3])
			  else
			    ends = now - 1000 * (tonumber(string.match(info, 'uptime_in_seconds:(%d+)')) - 1) + tonumber(ARGV[3])
			  end
			  redis.call('SET', KEYS[3], run_id .. ' ' .. string.format('%.0f', ends))
			end
			ends = tonumber(ends)
			if now < ends then
			  return -2 - (ends - now)
			end
			local granted = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
			if not granted and redis.call('GET', KEYS[1]) == ARGV[1] then
			  granted = redis.call('PEXPIRE', KEYS[1], ARGV[2])
			end
			if not granted then
			  return -2 - redis.call('PTTL', KEYS[1])
			end
			if ARGV[4] == '1' then
			  return next_token(KEYS[2])
			end
			return 1
			""");

	/**
	 * Compare-and-delete, announced. KEYS[1] the lock key, ARGV[1] the owner token. Deletes
	 * the key only while it still holds ARGV[1], so a caller whose TTL ran out cannot delete
	 * the next owner's lock, and then publishes an empty message on the lock's wake-up
	 * channel {@code {<lock key>}:released} (see {@link RedisLockNotifications}): its hash
	 * tag is the whole lock key, so the channel lives in the lock key's cluster slot. Sharded
	 * pub/sub (SPUBLISH), or, {@linkplain #on(RedisServerFeatures) on a server without it}
	 * (Redis 6.2), PUBLISH. A publish that fails (an ACL that denies it) leaves the release
	 * done: waiters then wake by their maximum wait. Returns 1 when deleted, 0 otherwise.
	 */
	static final LockScript RELEASE = waking("""
			if redis.call('GET', KEYS[1]) ~= ARGV[1] then
			  return 0
			end
			local deleted = redis.call('DEL', KEYS[1])
			WAKE_UP
			return deleted
			""");

	/**
	 * {@link #RELEASE} without the compare, for an operator: KEYS[1] the lock key. Deletes
	 * the key whoever holds it and, when it did, publishes the wake-up as RELEASE does.
	 * Returns 1 when deleted, 0 when no lock was held.
	 */
	static final LockScript FORCE_RELEASE = waking("""
			local deleted = redis.call('DEL', KEYS[1])
			if deleted == 0 then
			  return 0
			end
			WAKE_UP
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
	 * Returns the counter's next token ({@link #NEXT_TOKEN}) while KEYS[1] still holds
	 * ARGV[1], else 0 and leaves the counter alone.
	 */
	static final LockScript FENCE = new LockScript(NEXT_TOKEN + """
			if redis.call('GET', KEYS[1]) == ARGV[1] then
			  return next_token(KEYS[2])
			end
			return 0
			""");

	private final byte[] source;

	private final String sha1;

	/** The same script publishing by PUBLISH, for a server without SPUBLISH; else null. */
	private final @Nullable LockScript classic;

	private LockScript(String source) {
		this(source, null);
	}

	private LockScript(String source, @Nullable LockScript classic) {
		this.source = source.getBytes(StandardCharsets.UTF_8);
		this.sha1 = sha1(this.source);
		this.classic = classic;
	}

	/**
	 * A script that wakes the lock's waiters where its source says {@code WAKE_UP}: by
	 * SPUBLISH, with a sibling that uses PUBLISH.
	 */
	private static LockScript waking(String source) {
		String wakeUp = "redis.pcall('%s', '{' .. KEYS[1] .. '}:released', '')";
		return new LockScript(source.replace("WAKE_UP", wakeUp.formatted("SPUBLISH")),
				new LockScript(source.replace("WAKE_UP", wakeUp.formatted("PUBLISH"))));
	}

	/**
	 * This script as the server runs it: the PUBLISH sibling of a waking script on a server
	 * without sharded pub/sub, else this script.
	 * @param server what the connection's server has
	 * @return the script to send
	 */
	LockScript on(RedisServerFeatures server) {
		LockScript sibling = this.classic;
		return (sibling != null && !server.sharded()) ? sibling : this;
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
