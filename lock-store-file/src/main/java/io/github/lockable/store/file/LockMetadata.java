package io.github.lockable.store.file;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * What a lock file says: who holds the lock, since when and until when. Metadata only:
 * never arguments, user data, URLs or credentials.
 *
 * @param job the lock key
 * @param token the owner's token, compared on release and extend; a secret of the holder
 * that {@link #toString()} leaves out
 * @param fencingToken the fencing token of this acquisition, or 0 in a lock file written
 * before there were fencing tokens
 * @param holder the process that holds the lock
 * @param startedAt when the lock was acquired
 * @param expiresAt when the lock becomes stale unless extended
 * @param version the holder's application version, if known
 * @param instance the holder's application instance ({@code LockHolder.instance()}), if
 * the request named it; {@code null} in a lock file written before there were holders
 * @param method the caller that holds the lock ({@code LockHolder.method()}), if the
 * request named it
 */
record LockMetadata(String job, String token, long fencingToken, ProcessIdentity holder, Instant startedAt, Instant expiresAt,
		@Nullable String version, @Nullable String instance, @Nullable String method) {

	/** Metadata of a holder that named neither its instance nor its method. */
	LockMetadata(String job, String token, long fencingToken, ProcessIdentity holder, Instant startedAt, Instant expiresAt,
			@Nullable String version) {
		this(job, token, fencingToken, holder, startedAt, expiresAt, version, null, null);
	}

	boolean isExpired(Instant now) {
		return !now.isBefore(this.expiresAt);
	}

	boolean isOwnedBy(String token) {
		return MessageDigest.isEqual(this.token.getBytes(StandardCharsets.UTF_8),
				token.getBytes(StandardCharsets.UTF_8));
	}

	Duration remainingTtl(Instant now) {
		return Duration.between(now, this.expiresAt);
	}

	Duration age(Instant now) {
		Duration age = Duration.between(this.startedAt, now);
		return age.isNegative() ? Duration.ZERO : age;
	}

	LockMetadata withExpiresAt(Instant expiresAt) {
		return new LockMetadata(this.job, this.token, this.fencingToken, this.holder, this.startedAt, expiresAt, this.version,
				this.instance, this.method);
	}

	@Override
	public String toString() {
		return "LockMetadata[job=" + this.job + ", fencingToken=" + this.fencingToken + ", holder=" + this.holder + ", startedAt=" + this.startedAt
				+ ", expiresAt=" + this.expiresAt + ", version=" + this.version + ", instance=" + this.instance + ", method="
				+ this.method + "]";
	}

}
