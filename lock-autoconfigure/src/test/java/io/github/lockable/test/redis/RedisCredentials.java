package io.github.lockable.test.redis;

import java.util.Objects;

import org.springframework.lang.Nullable;

/**
 * Who a client logs in to Redis as.
 *
 * @param username the ACL user, or {@code null} to send the password alone, as for a
 * server with {@code requirepass}
 * @param password the password
 */
public record RedisCredentials(@Nullable String username, String password) {

	public RedisCredentials {
		Objects.requireNonNull(password, "password must not be null");
	}

	@Override
	public String toString() {
		return "RedisCredentials[username=" + this.username + "]";
	}

}
