package io.github.lockable.core;

import java.security.Principal;
import java.util.List;
import java.util.function.Supplier;

import io.github.lockable.Lockable;
import io.github.lockable.core.HeldLocks.HeldLockInfo;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * {@link Endpoint @Endpoint} that shows how this application locks: every
 * {@link Lockable @Lockable} method with its settings, the lock store, and the locks this
 * instance holds now; under {@code locks}, every lock held in the store under the key
 * prefix by any instance, with what the store knows of its holder; and, for operators, a
 * forced release of one of them ({@code DELETE locks/{key}}). It never shows a lock's
 * token, nor any argument of a call.
 * <p>
 * Its default access is read-only: the forced release needs
 * {@code management.endpoint.lockable.access=unrestricted}.
 */
@Endpoint(id = "lockable", defaultAccess = Access.READ_ONLY)
public class LockableEndpoint {

	/** The most locks one listing shows. */
	static final int LIMIT = 1000;

	private final LockManager lockManager;

	private final HeldLocks heldLocks;

	private final Supplier<List<LockableMethodDescriptor>> methods;

	private final StoredLocks storedLocks;

	/**
	 * Creates the endpoint.
	 * @param core the core, for its store and the locks it holds, which it records from now
	 * on
	 * @param advisors the application's advisors, whose Lockable advisor knows the
	 * {@code @Lockable} methods; asked at each report
	 */
	public LockableEndpoint(LockableCore core, ObjectProvider<Advisor> advisors) {
		this(core.lockManager(), core.keys(), () -> advisors.stream()
			.filter(LockableAdvisor.class::isInstance)
			.findFirst()
			.map((advisor) -> ((LockableAdvisor) advisor).lockableMethods())
			.orElse(List.of()), core.metrics());
	}

	LockableEndpoint(LockManager lockManager, LockKeys keys, Supplier<List<LockableMethodDescriptor>> methods,
			LockMetrics metrics) {
		this.lockManager = lockManager;
		this.heldLocks = lockManager.heldLocks();
		this.methods = methods;
		this.storedLocks = new StoredLocks(lockManager.store(), keys, metrics);
	}

	/**
	 * Reports the store, the {@code @Lockable} methods and the locks held now.
	 * @return the report
	 */
	@ReadOperation
	public OperationResponseBody lockable() {
		return new LockableDescriptor(this.lockManager.store().name(), this.methods.get(),
				this.heldLocks.snapshot());
	}

	/**
	 * Lists every lock held in the store under the key prefix, by any instance, at most
	 * {@value #LIMIT}.
	 * @param locks the path segment {@code locks}
	 * @return the locks (200), 404 for another path, 503 when the store does not answer,
	 * 501 for a store that cannot list its locks
	 */
	@ReadOperation
	public WebEndpointResponse<Object> locks(@Selector String locks) {
		return "locks".equals(locks) ? this.storedLocks.list(LIMIT) : StoredLocks.NOT_FOUND;
	}

	/**
	 * Deletes a lock whoever holds it, as an operator does with a lock its crashed holder
	 * left; logged at WARN with the principal. Its holder, if it still runs, finds the lock
	 * lost; the next holder gets a greater fencing token.
	 * @param locks the path segment {@code locks}
	 * @param key the full key, prefix included
	 * @param securityContext who asks
	 * @return 204 when deleted, 404 when no lock was held, 400 for a key that is not a full
	 * key under the prefix, 503 when the store does not answer
	 */
	@DeleteOperation
	public WebEndpointResponse<Object> forceRelease(@Selector String locks, @Selector String key,
			SecurityContext securityContext) {
		if (!"locks".equals(locks)) {
			return StoredLocks.NOT_FOUND;
		}
		Principal principal = securityContext.getPrincipal();
		return this.storedLocks.forceRelease(key, (principal != null) ? principal.getName() : "unauthenticated");
	}

	/**
	 * What the {@code lockable} endpoint reports.
	 *
	 * @param store the name of the lock store: {@code redis}, {@code file},
	 * {@code memory}, or a custom store's name
	 * @param methods every {@code @Lockable} method, sorted by method
	 * @param held the locks this instance holds now, oldest first, without their tokens
	 */
	record LockableDescriptor(String store, List<LockableMethodDescriptor> methods,
			List<HeldLockInfo> held) implements OperationResponseBody {

	}

}
