package io.github.lockable.web;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;

import io.github.lockable.ConflictPolicy;
import io.github.lockable.InvalidLockKeyException;
import io.github.lockable.LockConflictException;
import io.github.lockable.LockStoreUnavailableException;
import io.github.lockable.LockableException;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Renders Lockable's exceptions as RFC 9457 {@code application/problem+json}, whether or
 * not the application enabled {@code spring.mvc.problemdetails}: 409, 423 or 429 for a held
 * lock, 400 for an invalid key, 503 for an unavailable store. Every problem has a
 * {@code retryable} member, and retryable ones a {@code Retry-After} header in whole
 * seconds. Nothing in the response names the key, the token or the holder.
 * <p>
 * Works for Spring MVC and WebFlux controllers. Its order, {@value #ORDER}, is ahead of the
 * usual catch-all {@code @ExceptionHandler(Exception.class)} advice at the default order. To
 * render these exceptions differently, declare a bean of this type or an advice with a
 * higher precedence.
 */
@RestControllerAdvice
@Order(LockableExceptionHandler.ORDER)
public class LockableExceptionHandler {

	/** Order of this advice among the application's controller advice. */
	public static final int ORDER = 0;

	static final String TYPE_PREFIX = "urn:lockable:problem:";

	/**
	 * Renders a held lock: 409, 423 or 429 by the policy, with {@code Retry-After}.
	 * @param ex the conflict
	 * @return the problem response
	 */
	@ExceptionHandler(LockConflictException.class)
	public ResponseEntity<ProblemDetail> lockConflict(LockConflictException ex) {
		ConflictPolicy policy = ex.getPolicy();
		HttpStatus status = switch (policy) {
			case LOCKED -> HttpStatus.LOCKED;
			case TOO_MANY_REQUESTS -> HttpStatus.TOO_MANY_REQUESTS;
			default -> HttpStatus.CONFLICT;
		};
		String detail = switch (policy) {
			case LOCKED -> "An operation in progress holds this resource. Try again later.";
			case TOO_MANY_REQUESTS -> "The same operation is already in progress. Try again later.";
			default -> "Another request is changing the same resource. Try again later.";
		};
		return problem(status, "lock-" + policy.name().toLowerCase(Locale.ROOT).replace('_', '-'), detail, ex,
				seconds(ex.getRetryAfter()));
	}

	/**
	 * Renders a resolved key outside the key rule: 400, not retryable.
	 * @param ex the refused key
	 * @return the problem response
	 */
	@ExceptionHandler(InvalidLockKeyException.class)
	public ResponseEntity<ProblemDetail> invalidLockKey(InvalidLockKeyException ex) {
		return problem(HttpStatus.BAD_REQUEST, "invalid-lock-key",
				"The request does not identify a resource that can be locked.", ex, -1);
	}

	/**
	 * Renders a store failure: 503 with {@code Retry-After: 1}.
	 * @param ex the store failure
	 * @return the problem response
	 */
	@ExceptionHandler(LockStoreUnavailableException.class)
	public ResponseEntity<ProblemDetail> lockStoreUnavailable(LockStoreUnavailableException ex) {
		return problem(HttpStatus.SERVICE_UNAVAILABLE, "lock-store-unavailable",
				"The lock service is not available. Try again shortly.", ex, 1);
	}

	private static ResponseEntity<ProblemDetail> problem(HttpStatus status, String type, String detail,
			LockableException ex, long retryAfterSeconds) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
		problem.setType(URI.create(TYPE_PREFIX + type));
		problem.setTitle(status.getReasonPhrase());
		problem.setProperty("retryable", ex.isRetryable());
		ResponseEntity.BodyBuilder response = ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON);
		if (retryAfterSeconds > 0) {
			response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
		}
		return response.body(problem);
	}

	/** Whole seconds, rounded up, at least one: a client that waits that long finds the lock gone. */
	static long seconds(Duration duration) {
		long millis = Math.max(duration.toMillis(), 1);
		return (millis + 999) / 1000;
	}

}
