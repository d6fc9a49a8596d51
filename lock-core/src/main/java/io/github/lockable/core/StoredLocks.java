package io.github.lockable.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.lockable.store.LockHolder;
import io.github.lockable.store.LockListing;
import io.github.lockable.store.LockStore;
import io.github.lockable.store.StoredLock;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The endpoint's view of the locks in the store: the listing under the key prefix and the
 * forced release, each answered with its HTTP status.
 */
final class StoredLocks {

	static final WebEndpointResponse<Object> NOT_FOUND = new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND);

	// The endpoint's log category from before its package merged into core, which docs/troubleshooting.md names
	private static final Logger logger = LoggerFactory.getLogger("io.github.lockable.actuate.LockableEndpoint");

	/**
	 * Longest wait for the store, on top of its own timeout, which bounds every call: a
	 * store that broke that promise answers 503 rather than hang the request.
	 */
	private static final Duration STORE_WAIT = Duration.ofSeconds(30);

	private final LockStore store;

	private final LockKeys keys;

	private final LockMetrics metrics;

	StoredLocks(LockStore store, LockKeys keys, LockMetrics metrics) {
		this.store = store;
		this.keys = keys;
		this.metrics = metrics;
	}

	WebEndpointResponse<Object> list(int limit) {
		try {
			LockListing listing = await(this.store.locks(this.keys.prefix(), limit));
			List<LockDescriptor> locks = listing.locks().stream().map(LockDescriptor::of).toList();
			return new WebEndpointResponse<>(
					new LocksDescriptor(this.store.name(), this.keys.prefix(), locks, listing.truncated()));
		}
		catch (StoreAnswer answer) {
			return answer.response;
		}
	}

	WebEndpointResponse<Object> forceRelease(String key, String principal) {
		String prefix = this.keys.prefix();
		if (!key.startsWith(prefix) || this.keys.problem(key.substring(prefix.length())) != null) {
			return new WebEndpointResponse<>(new Problem("not a full lock key under the prefix '" + prefix
					+ "': use a key as GET /actuator/lockable/locks lists it"), WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		try {
			if (!await(this.store.forceRelease(key))) {
				return NOT_FOUND;
			}
		}
		catch (StoreAnswer answer) {
			return answer.response;
		}
		this.metrics.forceReleased();
		logger.warn("Force-released the lock {} at the request of {}: its holder, if it still runs, finds the lock "
				+ "lost at its next extend or release", key, principal);
		return new WebEndpointResponse<>(WebEndpointResponse.STATUS_NO_CONTENT);
	}

	private <T> T await(CompletionStage<T> stage) throws StoreAnswer {
		try {
			return stage.toCompletableFuture().get(STORE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new StoreAnswer(WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE, "interrupted");
		}
		catch (TimeoutException ex) {
			throw new StoreAnswer(WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE,
					"the " + this.store.name() + " store did not answer within " + STORE_WAIT.toSeconds() + "s");
		}
		catch (ExecutionException ex) {
			if (ex.getCause() instanceof UnsupportedOperationException unsupported) {
				throw new StoreAnswer(501, String.valueOf(unsupported.getMessage()));
			}
			throw new StoreAnswer(WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE,
					"the " + this.store.name() + " store did not answer: " + ex.getCause().getMessage());
		}
	}

	/** A store's answer that ends the operation with an error status. */
	private static final class StoreAnswer extends Exception {

		private final transient WebEndpointResponse<Object> response;

		StoreAnswer(int status, String message) {
			super(message, null, false, false);
			this.response = new WebEndpointResponse<>(new Problem(message), status);
		}

	}

	/**
	 * The locks under the key prefix.
	 *
	 * @param store the store's name
	 * @param prefix the key prefix
	 * @param locks at most {@value LockableEndpoint#LIMIT} locks, sorted by key
	 * @param truncated whether the store holds more under the prefix
	 */
	record LocksDescriptor(String store, String prefix, List<LockDescriptor> locks, boolean truncated)
			implements OperationResponseBody {

	}

	/**
	 * One lock in the store and what the store knows of its holder; never its token.
	 *
	 * @param key the full key
	 * @param instance the holder's instance, such as {@code orders@host-1}
	 * @param pid the holder's process id
	 * @param method the holder's method, or {@code LockTemplate}
	 * @param acquiredAt when the lock was taken
	 * @param ttlLeft how long the lock lives unless released or extended
	 */
	record LockDescriptor(String key, @Nullable String instance, @Nullable Long pid, @Nullable String method,
			@Nullable Instant acquiredAt, Duration ttlLeft) {

		static LockDescriptor of(StoredLock lock) {
			LockHolder holder = lock.holder();
			return new LockDescriptor(lock.key(), (holder != null) ? holder.instance() : null,
					(holder != null) ? holder.pid() : null, (holder != null) ? holder.method() : null,
					lock.acquiredAt(), lock.ttlLeft());
		}

	}

	/**
	 * Why the operation did not answer what was asked.
	 *
	 * @param error what went wrong and what to do
	 */
	record Problem(String error) implements OperationResponseBody {

	}

}
