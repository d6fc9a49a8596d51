package io.github.lockable.sample;

import java.util.UUID;

import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockKeyResolver;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;

/**
 * The named key resolvers of the sample: each turns a call into the resource part of its
 * lock key, from validated values only.
 */
@Configuration(proxyBeanMethods = false)
class LockKeyResolvers {

	/** Header that names the calling user; stands in for an authenticated principal. */
	static final String USER_HEADER = "X-User-Id";

	/**
	 * One lock per project: {@code project:<uuid>}. The path variable is already a UUID, so
	 * the key holds a canonical id, never the raw path text.
	 */
	@Bean
	LockKeyResolver project() {
		return (invocation) -> "project:" + invocation.argument("projectId", UUID.class);
	}

	/**
	 * One lock per user: {@code user:<uuid>}. In a real application this would come from the
	 * authenticated principal; here a header carries it and must be a UUID.
	 */
	@Bean
	LockKeyResolver currentUser() {
		return (invocation) -> {
			Object header = RequestContextHolder.currentRequestAttributes()
				.getAttribute(CurrentUserInterceptor.ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
			if (!(header instanceof UUID user)) {
				throw new InvalidLockKeyException("No valid " + USER_HEADER + " header");
			}
			return "user:" + user;
		};
	}

}
