package io.github.lockable.sample;

import java.util.UUID;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Reads the calling user from the {@value LockKeyResolvers#USER_HEADER} header and keeps it
 * as a request attribute, parsed. A stand-in for authentication: it runs before the
 * handler, so before the lock.
 */
class CurrentUserInterceptor implements HandlerInterceptor {

	static final String ATTRIBUTE = CurrentUserInterceptor.class.getName() + ".user";

	@Override
	public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
		String header = request.getHeader(LockKeyResolvers.USER_HEADER);
		if (header != null) {
			try {
				request.setAttribute(ATTRIBUTE, UUID.fromString(header));
			}
			catch (IllegalArgumentException ex) {
				// Left unset: the resolver answers 400 for a locked endpoint.
			}
		}
		return true;
	}

}
